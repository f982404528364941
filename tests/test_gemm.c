/* gpux tests: matrix products (include/gpux/linalg.h) against the double-precision CPU
 * reference of tests/ref (ref_gemm: long double sums for floats, exact wrapping integers).
 *
 * Every product test runs once per path: GPUX_OPTION_GEMM_PATH set to auto, vendor (cuBLAS /
 * CLBlast) and native (gpux's kernels), on whatever backend GPUX_BACKEND picks (where auto
 * resolves to native, integers and CPU devices, its cases are a few products of each form,
 * which check the routing; the native cases run the kernels in full):
 *   gemm       shapes 1x1x1, 1x7x1 (and its siblings), 17x33x65, 257x129x511, tall, wide, deep,
 *              tile-sized; all four transpose combinations; alpha/beta (beta = 0 with a
 *              NaN-poisoned C that must not leak); k == 0 (C = beta C); empty C; operands and
 *              outputs as views (sub-matrix with a leading dimension and an offset, every
 *              other row, steps -2/2 that need a copy, reversed, reversed rows or batches,
 *              step 2 everywhere); data of small integers in
 *              float dtypes (every sum exact: compared with tolerance 0, so any indexing slip
 *              shows) besides random data of mixed magnitudes.
 *   matmul     1-d x 1-d, 1-d x 2-d, 2-d x 1-d, 2-d x 2-d, 3-d and 4-d stacks, broadcast batches
 *              ((2,1,m,k) @ (3,k,n), (m,k) @ (b,k,n), ...), 6-d, empty batches, k == 0, views as
 *              operands; matmul_into into poisoned (NaN / 0xA5) and strided outputs (negative
 *              batch strides; a step-2 vector result, which the front end writes as C^T).
 * Not reachable through the public API: a transposed (column-major) view of a matrix, so
 * the in-place transposed operand of include/gpux/linalg.h is covered only by 1-d operands
 * and the GPUX_TRANS flags.
 *   gemv       both transposes, alpha/beta, NaN-poisoned y, strided x and y.
 *   dot        and dot_scalar, several lengths, strided operands.
 *   big        1024^3 float32 and float64, 1000x1001x999 float32 transposed: a random sample
 *              of entries (and the corners) against the reference.
 *   precision  float32 inputs whose low mantissa bits matter: a path that quietly computes in
 *              TF32 or half precision fails.
 * dtypes: float32, float64, every integer dtype (exact, wrapping in the dtype's width),
 * float16, bfloat16 (uploaded as float32 values exact in both, cast on the device; CUDA
 * computes them, OpenCL must answer GPUX_ERROR_UNSUPPORTED_DTYPE naming the dtype). The
 * vendor path has no integers: forcing it must give GPUX_ERROR_UNSUPPORTED_DTYPE naming the
 * path; bool has no products on any path.
 * Plus: errors (NULL, shapes that do not fit, named in the message; dtypes; non-2-d gemm
 * operands; overlap; contexts), the path and TF32 options and the GPUX_GEMM variable, TF32 on
 * CUDA (looser tolerance with it, float32 tolerance without). The context stays usable after
 * every error.
 *
 * THE TOLERANCE TABLE (|got - want| <= tol, want = the long double reference before rounding,
 * S = |alpha| sum_l |a_il b_lj| + |beta c_ij|, k = the inner size, u = 2^-24 (float32 unit
 * roundoff), U = 2^-53):
 *   dtype                 tol                                        why
 *   float32               (k + 4) u S + (k + 1) FLT_MIN              any summation order (blocked,
 *                                                                    FMA or not): gamma_k of the
 *                                                                    sum, + alpha, beta, the add
 *                                                                    and the final rounding;
 *                                                                    flushed subnormals
 *   float32, TF32 on      2^-9 S + (k + 4) u S + (k + 1) FLT_MIN     inputs rounded (or cut) to
 *                                                                    10 mantissa bits: each
 *                                                                    product off by <= 2^-9
 *   float64               (k + 4) U S + (k + 1) DBL_MIN              as float32
 *   float16               (k + 4) u S + 2^-11 |want| + 2^-25         float32 accumulation, then
 *                                                                    one rounding to float16
 *                                                                    (2^-25: its subnormals)
 *   bfloat16              (k + 4) u S + 2^-8 |want| + (k+1) FLT_MIN  the same, rounded to bf16
 *   int32, int64          0                                          wrapping, exact
 *   float data of small   0                                          every product and partial
 *   integers                                                         sum is an exact integer
 *     float16/bfloat16    0 against the reference rounded once;      cuBLAS with beta != 0 rounds
 *                         cuBLAS, beta != 0: h (S + |want|),         alpha AB to the dtype, then
 *                         h = 2^-11 (float16) or 2^-8 (bfloat16)     adds beta C (two roundings)
 * The precision test's inputs make TF32 / half-precision inputs err by >= 8 2^-16, twenty
 * times its float32 tolerance. */
#include <ctype.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* float16 / bfloat16 (added to gpux_dtype as 6 and 7 in issue 4); spelled by value so this
 * file builds before the enum has them (the tests skip when gpux_dtype_size says they are
 * missing). */
#define DT_F16 GPUX_FLOAT16
#define DT_BF16 GPUX_BFLOAT16

#define NPATHS 3
static const int k_paths[NPATHS] = {GPUX_GEMM_AUTO, GPUX_GEMM_VENDOR, GPUX_GEMM_NATIVE};
static const char *const k_path_names[NPATHS] = {"auto", "vendor", "native"};
#define NDT 12
static const gpux_dtype k_dts[NDT] = {GPUX_FLOAT32, GPUX_FLOAT64, GPUX_INT32, GPUX_INT64,
                                      DT_F16,       DT_BF16,      GPUX_INT8,  GPUX_UINT8,
                                      GPUX_INT16,   GPUX_UINT16,  GPUX_UINT32, GPUX_UINT64};

static int g_path = GPUX_GEMM_AUTO; /* the path the running test set */
static int g_tf32 = 0;              /* GPUX_OPTION_TF32 as the running test set it */

/* ------------------------------------------------------------------ small helpers */

static int is_half(gpux_dtype dt) { return dt == GPUX_FLOAT16 || dt == GPUX_BFLOAT16; }
static int is_int(gpux_dtype dt) { return !ref_dtype_is_float(dt) && dt != GPUX_BOOL; }
static int is_cuda(void) { return gt_info.backend == GPUX_BACKEND_CUDA; }
/* The dtype the host holds the data in: float32 for the half dtypes (values exact in both). */
static gpux_dtype hdt(gpux_dtype dt) { return is_half(dt) ? GPUX_FLOAT32 : dt; }


static const char *path_str(int path) {
  return path >= 0 && path < NPATHS ? k_path_names[path] : "?";
}

/* case-insensitive strstr */
static int has_word(const char *msg, const char *w) {
  if (!msg || !w) return 0;
  size_t lw = strlen(w);
  for (const char *p = msg; *p; p++) {
    size_t i = 0;
    while (i < lw && p[i] && tolower((unsigned char)p[i]) == tolower((unsigned char)w[i])) i++;
    if (i == lw) return 1;
  }
  return 0;
}

/* 1 when the integers of shape appear consecutively among the integers of msg (any shape
 * format: "(2, 3)", "[2,3]", "2x3"). */

/* The auto path resolves to the native one for integers (no vendor library multiplies
 * integers in their own width) and for every dtype on CPU devices (src/api/linalg.c,
 * choose_path): the native cases run those kernels in full, so there the auto cases check
 * the routing with a few products of each form instead of repeating the whole set. */
static int auto_is_native(gpux_dtype dt) {
  return g_path == GPUX_GEMM_AUTO && (is_int(dt) || !gt_info.is_gpu);
}

/* What the spec says a product of dt gives on the running path and backend. */
static gpux_status expected_status(gpux_dtype dt) {
  if (dt == GPUX_BOOL) return GPUX_ERROR_UNSUPPORTED_DTYPE;
  if (is_half(dt) && !is_cuda()) return GPUX_ERROR_UNSUPPORTED_DTYPE;
  if (is_int(dt) && g_path == GPUX_GEMM_VENDOR) return GPUX_ERROR_UNSUPPORTED_DTYPE;
  return GPUX_SUCCESS;
}

/* Checks an expected UNSUPPORTED_DTYPE: the message names the forced path (integers on the
 * vendor path) or the dtype (half dtypes on OpenCL, uint8, bool). */
static void check_unsupported(gpux_status st, gpux_dtype dt, const char *label) {
  gt_check_status(GPUX_ERROR_UNSUPPORTED_DTYPE, st, label, __FILE__, __LINE__);
  const char *m = gpux_last_error_message();
  if (is_int(dt)) {
    GT_ASSERT(has_word(m, "vendor"), "%s: the message does not name the vendor path: \"%s\"",
              label, m);
  } else {
    const char *name = gpux_dtype_name(dt);
    GT_ASSERT(!name || has_word(m, name) || has_word(m, gt_dtype_str(dt)),
              "%s: the message does not name the dtype %s: \"%s\"", label, gt_dtype_str(dt), m);
  }
}

/* The tolerance of one result (the table at the top). exact: small-integer data (0). */
static double gemm_tol(gpux_dtype dt, int64_t k, double S, double want, int exact) {
  const double u = 0x1p-24, U = 0x1p-53, kk = (double)k;
  if (is_int(dt) || exact) return 0.0;
  switch ((int)dt) {
    case GPUX_FLOAT32: {
      double t = (kk + 4) * u * S + (kk + 1) * FLT_MIN;
      if (g_tf32 && is_cuda() && g_path != GPUX_GEMM_NATIVE) t += 0x1p-9 * S; /* vendor only */
      return t;
    }
    case GPUX_FLOAT64: return (kk + 4) * U * S + (kk + 1) * DBL_MIN;
    case GPUX_FLOAT16: return (kk + 4) * u * S + 0x1p-11 * fabs(want) + 0x1p-25;
    case GPUX_BFLOAT16: return (kk + 4) * u * S + 0x1p-8 * fabs(want) + (kk + 1) * FLT_MIN;
  }
  return 0.0;
}

/* ------------------------------------------------------------------ host data */

typedef enum data_kind {
  DATA_RANDOM = 0, /* floats: mixed magnitudes and signs; ints: wrap-around values */
  DATA_SMALLINT = 1 /* integers in [-8, 8] (exact float sums) */
} data_kind;

/* n values of host dtype hdt(dt). Half dtypes: multiples of 1/8 in [-4, 4] (exact in float16
 * and bfloat16; with float32 accumulation every sum is exact too). */
static void *host_random(gpux_dtype dt, int64_t n, data_kind kind, uint64_t seed) {
  gpux_dtype h = hdt(dt);
  void *buf = gt_malloc((size_t)(n > 0 ? n : 1) * ref_dtype_size(h));
  gt_rng r;
  gt_rng_seed(&r, seed);
  if (is_half(dt) || kind == DATA_SMALLINT) {
    for (int64_t i = 0; i < n; i++) {
      ref_value v;
      if (is_half(dt)) v.f = (double)gt_rng_int(&r, -32, 32) / 8.0;
      else if (ref_dtype_is_float(h)) v.f = (double)gt_rng_int(&r, -8, 8);
      else v.i = gt_rng_int(&r, -8, 8);
      ref_store(h, buf, i, v);
    }
  } else {
    gt_fill_random(buf, h, n, GT_DOM_ANY, seed);
  }
  return buf;
}

/* ------------------------------------------------------------------ views */

/* Layouts of operands and outputs, built here from gpux_array_slice with the element map
 * worked out independently (per dim: step, leading pad, trailing pad). */
typedef enum lay {
  L_CONTIG = 0, /* a plain contiguous array */
  L_SUB,        /* a sub-block: every dim padded (offset), last dim unit stride, ld = cols + 5 */
  L_ROWS2,      /* every other row (and batch): last dim unit stride, ld = 2 cols */
  L_STRIDED,    /* last dim step -2, the one before step 2, ...: no unit-stride axis (copied) */
  L_REVERSED,   /* every dim step -1 */
  L_BATCHREV,   /* batch dims step -1 with the matrices contiguous (in place, negative batch
                   strides); 2-d: rows reversed; 1-d: reversed */
  L_STEP2,      /* every dim step 2 (1-d: read in place with ld 2; 2-d: copied) */
  L_COUNT
} lay;
static const char *const k_lay_names[L_COUNT] = {"contig",   "sub-block",       "every-other-row",
                                                  "strided(2,-2)", "reversed", "batch-reversed",
                                                  "step-2"};

typedef struct mview {
  gpux_array_t base, view; /* view == base when contiguous */
  gpux_dtype dt;
  lay layout;
  int ndim;
  int64_t shape[GPUX_MAX_DIMS];
  int64_t n, base_n;
  int64_t *map; /* logical row-major index -> base index; NULL when contiguous */
} mview;

static void dim_spec(lay l, int ndim, int d, int *step, int64_t *pad, int64_t *tail) {
  int last = d == ndim - 1;
  *step = 1;
  *pad = 0;
  *tail = 0;
  switch (l) {
    case L_CONTIG: break;
    case L_SUB:
      *pad = last ? 3 : 1;
      *tail = last ? 2 : 1;
      break;
    case L_ROWS2:
      if (!last) {
        *step = 2;
        *pad = 1;
        *tail = 1;
      }
      break;
    case L_STRIDED:
      *step = ((ndim - 1 - d) % 2 == 0) ? -2 : 2;
      *pad = 1;
      *tail = 1;
      break;
    case L_REVERSED:
      *step = -1;
      *pad = 1;
      *tail = 1;
      break;
    case L_BATCHREV:
      if (ndim <= 2 ? d == 0 : d < ndim - 2) {
        *step = -1;
        *pad = 1;
        *tail = 1;
      }
      break;
    case L_STEP2:
      *step = 2;
      *pad = 1;
      *tail = 1;
      break;
    default: break;
  }
}

/* Uploads a host buffer (host dtype hdt(dt)) as an array of dt (half: cast on the device). */
static gpux_array_t upload(gpux_dtype dt, int ndim, const int64_t *shape, const void *host) {
  gpux_array_t a = NULL, h = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, hdt(dt), ndim, shape, host));
  if (!is_half(dt)) return a;
  GT_OK(gpux_array_cast(&h, a, dt));
  gpux_array_release(a);
  return h;
}

/* Reads any array of dt into a host buffer of hdt(dt) (half: cast on the device first). */
static void *download(gpux_array_t a, gpux_dtype dt, int64_t *n_out) {
  if (!is_half(dt)) return gt_read_all(a, n_out);
  gpux_array_t f = NULL;
  GT_OK(gpux_array_cast(&f, a, GPUX_FLOAT32));
  void *p = gt_read_all(f, n_out);
  gpux_array_release(f);
  return p;
}

/* data: the n logical elements (host dtype, row-major); NULL: a poisoned output (NaN for
 * float dtypes, the poison bytes for integers). Base positions outside the view hold the
 * poison bytes. */
static void mview_make(mview *v, gpux_dtype dt, int ndim, const int64_t *shape, lay l,
                       const void *data) {
  memset(v, 0, sizeof *v);
  gpux_dtype h = hdt(dt);
  size_t es = ref_dtype_size(h);
  v->dt = dt;
  v->ndim = ndim;
  v->n = ref_shape_size(ndim, shape);
  for (int d = 0; d < ndim; d++) v->shape[d] = shape[d];
  if (v->n == 0 || ndim == 0) l = L_CONTIG;
  v->layout = l;
  int step[GPUX_MAX_DIMS];
  int64_t pad[GPUX_MAX_DIMS], tail[GPUX_MAX_DIMS], bshape[GPUX_MAX_DIMS], bstr[GPUX_MAX_DIMS];
  for (int d = 0; d < ndim; d++) {
    dim_spec(l, ndim, d, &step[d], &pad[d], &tail[d]);
    int64_t as = step[d] < 0 ? -step[d] : step[d];
    bshape[d] = pad[d] + as * (shape[d] - 1) + 1 + tail[d];
  }
  ref_row_major_strides(ndim, bshape, bstr);
  v->base_n = ref_shape_size(ndim, bshape);
  if (l != L_CONTIG) {
    v->map = gt_malloc((size_t)v->n * sizeof(int64_t));
    int64_t idx[GPUX_MAX_DIMS] = {0};
    for (int64_t i = 0; i < v->n; i++) {
      int64_t pos = 0;
      for (int d = 0; d < ndim; d++) {
        int64_t as = step[d] < 0 ? -step[d] : step[d];
        int64_t bi = step[d] > 0 ? pad[d] + as * idx[d] : pad[d] + as * (shape[d] - 1 - idx[d]);
        pos += bi * bstr[d];
      }
      v->map[i] = pos;
      for (int d = ndim - 1; d >= 0; d--) {
        if (++idx[d] < shape[d]) break;
        idx[d] = 0;
      }
    }
  }
  int64_t bn = l == L_CONTIG ? v->n : v->base_n;
  char *host = gt_malloc((size_t)(bn > 0 ? bn : 1) * es);
  gt_poison_host(host, (size_t)bn * es);
  for (int64_t i = 0; i < v->n; i++) {
    char *dst = host + (size_t)(v->map ? v->map[i] : i) * es;
    if (data) {
      memcpy(dst, (const char *)data + (size_t)i * es, es);
    } else if (ref_dtype_is_float(h)) {
      ref_value nan;
      nan.f = NAN;
      ref_store(h, dst, 0, nan);
    }
  }
  v->base = upload(dt, ndim, l == L_CONTIG ? shape : bshape, host);
  free(host);
  if (l == L_CONTIG) {
    v->view = v->base;
    return;
  }
  int64_t start[GPUX_MAX_DIMS], stop[GPUX_MAX_DIMS], stp[GPUX_MAX_DIMS];
  for (int d = 0; d < ndim; d++) {
    int64_t as = step[d] < 0 ? -step[d] : step[d];
    stp[d] = step[d];
    if (step[d] > 0) {
      start[d] = pad[d];
      stop[d] = pad[d] + as * (shape[d] - 1) + 1;
    } else { /* pad >= 1: stop stays >= 0 (a negative stop would count from the end) */
      start[d] = pad[d] + as * (shape[d] - 1);
      stop[d] = pad[d] - 1;
    }
  }
  GT_OK(gpux_array_slice(&v->view, v->base, start, stop, stp));
  gt_check_shape(v->view, dt, ndim, shape, "mview_make");
}

/* The view's elements (host dtype, row-major, caller frees); fails the test when a base
 * element outside the view changed (not checked for half dtypes, whose poison does not
 * survive the casts). */
static void *mview_read(const mview *v, const char *label) {
  gpux_dtype h = hdt(v->dt);
  size_t es = ref_dtype_size(h);
  if (!v->map) {
    int64_t n = 0;
    void *p = download(v->view, v->dt, &n);
    GT_ASSERT(n == v->n, "%s: %" PRId64 " elements, expected %" PRId64, label, n, v->n);
    return p;
  }
  int64_t bn = 0;
  char *base = download(v->base, v->dt, &bn);
  char *out = gt_malloc((size_t)v->n * es);
  char *mark = calloc((size_t)bn, 1);
  GT_ASSERT(mark != NULL, "out of host memory");
  for (int64_t i = 0; i < v->n; i++) {
    memcpy(out + (size_t)i * es, base + (size_t)v->map[i] * es, es);
    mark[v->map[i]] = 1;
  }
  if (!is_half(v->dt)) {
    unsigned char poison[8];
    memset(poison, GT_POISON_BYTE, sizeof poison);
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < bn; i++)
      if (!mark[i] && memcmp(base + (size_t)i * es, poison, es) != 0) {
        if (first < 0) first = i;
        bad++;
      }
    GT_ASSERT(bad == 0, "%s: %" PRId64 " base elements outside the output view were written "
              "(first at base index %" PRId64 ")", label, bad, first);
  }
  free(mark);
  free(base);
  return out;
}

static void mview_free(mview *v) {
  if (v->view != v->base) gpux_array_release(v->view);
  gpux_array_release(v->base);
  free(v->map);
  memset(v, 0, sizeof *v);
}

/* ------------------------------------------------------------------ path set-up */

static int g_vendor_state = -1; /* -1 unknown, 0 missing, 1 present */

/* Sets the path (and TF32 off) for the running test; skips the test when the vendor path is
 * forced but the backend has no vendor library (GPUX_ERROR_UNSUPPORTED). */
static void use_path(int path) {
  g_path = path;
  g_tf32 = 0;
  GT_OK(gpux_context_set_option(gt_ctx, GPUX_OPTION_GEMM_PATH, path));
  GT_OK(gpux_context_set_option(gt_ctx, GPUX_OPTION_TF32, 0));
  if (path != GPUX_GEMM_VENDOR) return;
  if (g_vendor_state < 0) {
    const int64_t s1[2] = {1, 1};
    float one = 1.0f, got = 0.0f;
    gpux_array_t a = NULL, c = NULL;
    GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 2, s1, &one));
    GT_OK(gpux_array_from_host(&c, gt_ctx, GPUX_FLOAT32, 2, s1, &one));
    gpux_status st = gpux_gemm(c, GPUX_NO_TRANS, GPUX_NO_TRANS, 2.0, a, a, 0.0);
    if (st == GPUX_ERROR_UNSUPPORTED) {
      print_message("the vendor path is not available on this backend: %s\n",
                    gpux_last_error_message());
      g_vendor_state = 0;
    } else {
      GT_OK(st);
      GT_OK(gpux_array_read(c, &got, sizeof got));
      GT_ASSERT(got == 2.0f, "vendor probe: 2 * 1 * 1 = %g", got);
      g_vendor_state = 1;
    }
    gpux_array_release(a);
    gpux_array_release(c);
  }
  if (!g_vendor_state) skip();
}

/* Skips when dt cannot run here for reasons outside the spec (no fp64). */
static void need_dtype(gpux_dtype dt) {
  if (dt == GPUX_FLOAT64 && !gt_info.fp64) {
    print_message("float64 not available on this device\n");
    skip();
  }
}

typedef struct tcase {
  int path;
  gpux_dtype dt;
} tcase;

/* ------------------------------------------------------------------ gemm */

typedef struct gcase {
  int64_t m, n, k;
  int ta, tb;
  double alpha, beta;
  lay la, lb, lc;
  data_kind data;
} gcase;

static char *gcase_str(char *buf, size_t cap, gpux_dtype dt, const gcase *g) {
  snprintf(buf, cap,
           "gemm %s %s: m %" PRId64 " n %" PRId64 " k %" PRId64 ", %c%c, alpha %g beta %g, "
           "A %s B %s C %s%s",
           gt_dtype_str(dt), path_str(g_path), g->m, g->n, g->k, g->ta ? 'T' : 'N', g->tb ? 'T' : 'N',
           g->alpha, g->beta, k_lay_names[g->la], k_lay_names[g->lb], k_lay_names[g->lc],
           g->data == DATA_SMALLINT ? ", small-integer data" : "");
  return buf;
}

/* Compares an m x n result (host dtype) with the reference. */
static void compare_result(const char *label, gpux_dtype dt, int64_t k, const void *got,
                           ref_value *want, const double *sumabs, int64_t count, int exact,
                           double beta) {
  double *tol = gt_malloc((size_t)(count > 0 ? count : 1) * sizeof *tol);
  /* cuBLAS rounds alpha AB to a half dtype before adding beta C (the table) */
  const int twice = is_half(dt) && is_cuda() && g_path != GPUX_GEMM_NATIVE && beta != 0;
  for (int64_t i = 0; i < count; i++) {
    /* exact data: the float32 accumulation is exact, so a half result is the reference
     * rounded once to the half dtype (round to nearest even) */
    if (exact && is_half(dt)) want[i].f = ref_half_to_f64(dt, ref_half_from_f64(dt, want[i].f));
    tol[i] = gemm_tol(dt, k, sumabs[i], ref_dtype_is_float(hdt(dt)) ? want[i].f : 0.0, exact);
    if (exact && twice) /* each rounding within the unit roundoff h of its value (<= S) */
      tol[i] = (dt == GPUX_FLOAT16 ? 0x1p-11 : 0x1p-8) * (sumabs[i] + fabs(want[i].f));
  }
  gt_compare_tol(label, hdt(dt), got, want, tol, count);
  free(tol);
}

static void run_gemm(gpux_dtype dt, const gcase *g, uint64_t seed) {
  char label[320];
  gcase_str(label, sizeof label, dt, g);
  gpux_dtype h = hdt(dt);
  int64_t ar = g->ta ? g->k : g->m, ac = g->ta ? g->m : g->k;
  int64_t br = g->tb ? g->n : g->k, bc = g->tb ? g->k : g->n;
  const int64_t sa[2] = {ar, ac}, sb[2] = {br, bc}, sc[2] = {g->m, g->n};
  void *ha = host_random(dt, ar * ac, g->data, seed * 3 + 1);
  void *hb = host_random(dt, br * bc, g->data, seed * 3 + 2);
  void *hc = g->beta != 0 ? host_random(dt, g->m * g->n, g->data, seed * 3 + 3) : NULL;
  mview va, vb, vc;
  mview_make(&va, dt, 2, sa, g->la, ha);
  mview_make(&vb, dt, 2, sb, g->lb, hb);
  mview_make(&vc, dt, 2, sc, g->lc, hc);
  gpux_status want_st = expected_status(dt);
  gpux_status st = gpux_gemm(vc.view, g->ta ? GPUX_TRANS : GPUX_NO_TRANS,
                             g->tb ? GPUX_TRANS : GPUX_NO_TRANS, g->alpha, va.view, vb.view, g->beta);
  if (want_st != GPUX_SUCCESS) {
    check_unsupported(st, dt, label);
  } else {
    gt_check_ok(st, label, __FILE__, __LINE__);
    int64_t cnt = g->m * g->n;
    void *got = mview_read(&vc, label);
    ref_value *want = gt_malloc((size_t)(cnt > 0 ? cnt : 1) * sizeof *want);
    double *sabs = gt_malloc((size_t)(cnt > 0 ? cnt : 1) * sizeof *sabs);
    ref_gemm(h, g->ta, g->tb, g->m, g->n, g->k, g->alpha, ha, ac, hb, bc, g->beta, hc, g->n, want,
             sabs);
    compare_result(label, dt, g->k, got, want, sabs, cnt, g->data == DATA_SMALLINT, g->beta);
    free(got);
    free(want);
    free(sabs);
  }
  mview_free(&va);
  mview_free(&vb);
  mview_free(&vc);
  free(ha);
  free(hb);
  free(hc);
}

static gcase gc(int64_t m, int64_t n, int64_t k, int ta, int tb, double alpha, double beta) {
  gcase g;
  memset(&g, 0, sizeof g);
  g.m = m;
  g.n = n;
  g.k = k;
  g.ta = ta;
  g.tb = tb;
  g.alpha = alpha;
  g.beta = beta;
  return g;
}

/* (m, n, k) */
static const int64_t k_shapes[][3] = {
    {1, 1, 1},    {1, 1, 7},      {1, 7, 1},    {7, 1, 1},   {17, 33, 65}, {65, 17, 33},
    {257, 129, 511}, {515, 7, 33}, {5, 600, 17}, {3, 4, 3000}, {64, 64, 64}, {128, 96, 32},
    {2, 3, 4},    {33, 1, 129}};
#define NSHAPES (sizeof k_shapes / sizeof k_shapes[0])

static void test_gemm(void **state) {
  const tcase *tc = *state;
  gpux_dtype dt = tc->dt;
  use_path(tc->path);
  need_dtype(dt);
  uint64_t seed = (uint64_t)dt * 1000 + (uint64_t)tc->path * 100000;
  int unsupported = expected_status(dt) != GPUX_SUCCESS;
  if (!unsupported && auto_is_native(dt)) {
    for (int t = 0; t < 4; t++) {
      gcase g = gc(17, 33, 65, t & 1, t >> 1, 1.0, 0.0);
      run_gemm(dt, &g, seed++);
    }
    gcase g = gc(257, 129, 511, 1, 0, -1.5, 0.25);
    run_gemm(dt, &g, seed++);
    g = gc(129, 70, 131, 0, 1, 1.0, 0.0);
    g.la = g.lb = g.lc = L_SUB;
    run_gemm(dt, &g, seed++);
    return;
  }

  /* shapes x transposes, beta = 0 into NaN (0xA5 for integers): random data, then small
   * integers (exact) for the float dtypes */
  for (size_t s = 0; s < NSHAPES; s++) {
    for (int t = 0; t < 4; t++) {
      gcase g = gc(k_shapes[s][0], k_shapes[s][1], k_shapes[s][2], t & 1, t >> 1, 1.0, 0.0);
      run_gemm(dt, &g, seed++);
      if (unsupported) break;
      if (ref_dtype_is_float(dt) && !is_half(dt)) {
        g.data = DATA_SMALLINT;
        run_gemm(dt, &g, seed++);
      }
    }
    if (unsupported) return; /* the first call said it all (checked: status and message) */
  }

  /* alpha / beta. Integers: alpha and beta are converted as casts convert (2.5 -> 2,
   * 0.5 -> 0, -1.5 -> -1). */
  static const double ab[][2] = {{1, 0},  {2.5, 0}, {-1, 1}, {0.5, -2}, {0, 1},   {0, 0},
                                 {1, 1},  {-1.5, 0.25}, {3, -1.5}};
  for (size_t i = 0; i < sizeof ab / sizeof ab[0]; i++)
    for (int t = 0; t < 4; t += 3) {
      gcase g = gc(17, 33, 65, t & 1, t >> 1, ab[i][0], ab[i][1]);
      run_gemm(dt, &g, seed++);
      g = gc(64, 64, 64, t & 1, t >> 1, ab[i][0], ab[i][1]);
      g.data = DATA_SMALLINT;
      run_gemm(dt, &g, seed++);
    }

  /* k == 0: C = beta C (NaN in C must not survive beta = 0) */
  static const double betas[3] = {0.0, 0.5, 1.0};
  for (int b = 0; b < 3; b++)
    for (int t = 0; t < 4; t++) {
      gcase g = gc(5, 6, 0, t & 1, t >> 1, 1.0, betas[b]);
      run_gemm(dt, &g, seed++);
    }
  {
    gcase g = gc(130, 70, 0, 0, 0, 2.0, -1.0);
    run_gemm(dt, &g, seed++);
  }

  /* an empty C (m == 0 or n == 0): nothing to do, success */
  {
    gcase g = gc(0, 5, 3, 0, 0, 1.0, 0.0);
    run_gemm(dt, &g, seed++);
    g = gc(4, 0, 3, 1, 1, 1.0, 1.0);
    run_gemm(dt, &g, seed++);
  }

  /* views: each layout for A, B and C alone, then all three, in the four transposes, with
   * beta 0 and beta != 0 */
  for (int l = L_SUB; l < L_COUNT; l++)
    for (int who = 0; who < 4; who++)
      for (int t = 0; t < 4; t++) {
        gcase g = gc(17, 33, 65, t & 1, t >> 1, 1.5, (t & 1) ? 0.5 : 0.0);
        if (who == 0 || who == 3) g.la = (lay)l;
        if (who == 1 || who == 3) g.lb = (lay)l;
        if (who == 2 || who == 3) g.lc = (lay)l;
        g.data = (t == 1 || t == 2) ? DATA_SMALLINT : DATA_RANDOM;
        run_gemm(dt, &g, seed++);
      }
  /* views of a larger, tile-crossing shape */
  for (int l = L_SUB; l < L_COUNT; l++) {
    gcase g = gc(129, 70, 131, l & 1, (l >> 1) & 1, 1.0, 0.0);
    g.la = g.lb = g.lc = (lay)l;
    run_gemm(dt, &g, seed++);
  }
  /* mixed views */
  {
    gcase g = gc(33, 65, 17, 1, 0, -2.0, 0.0);
    g.la = L_ROWS2;
    g.lb = L_REVERSED;
    g.lc = L_SUB;
    run_gemm(dt, &g, seed++);
    g = gc(20, 30, 40, 0, 1, 1.0, 1.0);
    g.la = L_STRIDED;
    g.lb = L_SUB;
    g.lc = L_ROWS2;
    run_gemm(dt, &g, seed++);
  }
}

/* ------------------------------------------------------------------ matmul */

typedef struct mmcase {
  int na, nb;
  int64_t sa[GPUX_MAX_DIMS], sb[GPUX_MAX_DIMS];
} mmcase;

/* NumPy's matmul shape rule, worked out here: 0 when the shapes do not fit. Fills the
 * result shape, m, n, k, the broadcast batch shape and the batch strides (in matrices) of a
 * and b (0 where a dim broadcasts). */
typedef struct mmplan {
  int nout;
  int64_t out[GPUX_MAX_DIMS];
  int64_t m, n, k;
  int nbatch;
  int64_t batch[GPUX_MAX_DIMS];
  int64_t bstr_a[GPUX_MAX_DIMS], bstr_b[GPUX_MAX_DIMS];
  int64_t nbat;
} mmplan;

static int mm_plan(const mmcase *c, mmplan *p) {
  memset(p, 0, sizeof *p);
  int na = c->na, nb = c->nb;
  if (na < 1 || nb < 1) return 0;
  int64_t am, ak, bk, bn;
  if (na == 1) {
    am = 1;
    ak = c->sa[0];
  } else {
    am = c->sa[na - 2];
    ak = c->sa[na - 1];
  }
  if (nb == 1) {
    bk = c->sb[0];
    bn = 1;
  } else {
    bk = c->sb[nb - 2];
    bn = c->sb[nb - 1];
  }
  if (ak != bk) return 0;
  int ba = na > 2 ? na - 2 : 0, bb = nb > 2 ? nb - 2 : 0;
  int nbt = ba > bb ? ba : bb;
  int64_t sa_str = am * ak, sb_str = bk * bn; /* elements per matrix */
  int64_t acc_a = 1, acc_b = 1;
  p->nbat = 1;
  for (int i = 0; i < nbt; i++) { /* from the right */
    int da = ba - 1 - i, db = bb - 1 - i, d = nbt - 1 - i;
    int64_t xa = da >= 0 ? c->sa[da] : 1, xb = db >= 0 ? c->sb[db] : 1;
    if (xa != xb && xa != 1 && xb != 1) return 0;
    p->batch[d] = xa == 1 ? xb : xa;
    p->bstr_a[d] = xa == 1 ? 0 : acc_a;
    p->bstr_b[d] = xb == 1 ? 0 : acc_b;
    acc_a *= xa;
    acc_b *= xb;
  }
  for (int d = 0; d < nbt; d++) {
    p->bstr_a[d] *= sa_str;
    p->bstr_b[d] *= sb_str;
    p->nbat *= p->batch[d];
  }
  p->nbatch = nbt;
  p->m = am;
  p->n = bn;
  p->k = ak;
  p->nout = 0;
  for (int d = 0; d < nbt; d++) p->out[p->nout++] = p->batch[d];
  if (na > 1) p->out[p->nout++] = am;
  if (nb > 1) p->out[p->nout++] = bn;
  return 1;
}

/* The reference of a @ b (host dtype, contiguous) into want/sumabs (nbat * m * n). */
static void mm_ref(gpux_dtype h, const mmplan *p, const void *ha, const void *hb, ref_value *want,
                   double *sabs) {
  size_t es = ref_dtype_size(h);
  int64_t idx[GPUX_MAX_DIMS] = {0};
  for (int64_t bi = 0; bi < p->nbat; bi++) {
    int64_t oa = 0, ob = 0;
    for (int d = 0; d < p->nbatch; d++) {
      oa += idx[d] * p->bstr_a[d];
      ob += idx[d] * p->bstr_b[d];
    }
    ref_gemm(h, 0, 0, p->m, p->n, p->k, 1.0, (const char *)ha + (size_t)oa * es, p->k,
             (const char *)hb + (size_t)ob * es, p->n, 0.0, NULL, 0, want + bi * p->m * p->n,
             sabs + bi * p->m * p->n);
    for (int d = p->nbatch - 1; d >= 0; d--) {
      if (++idx[d] < p->batch[d]) break;
      idx[d] = 0;
    }
  }
}

enum { MM_NEW = 0, MM_INTO = 1, MM_INTO_VIEW = 2 };

static void run_matmul_o(gpux_dtype dt, const mmcase *c, lay la, lay lb, int out_mode, lay lo,
                         data_kind data, uint64_t seed) {
  char label[400], s1[96], s2[96], s3[96];
  mmplan p;
  GT_ASSERT(mm_plan(c, &p), "test bug: matmul shapes do not fit");
  snprintf(label, sizeof label, "matmul %s %s: %s @ %s -> %s, A %s B %s, %s%s", gt_dtype_str(dt),
           path_str(g_path), gt_shape_str(s1, sizeof s1, c->na, c->sa),
           gt_shape_str(s2, sizeof s2, c->nb, c->sb), gt_shape_str(s3, sizeof s3, p.nout, p.out),
           k_lay_names[la], k_lay_names[lb],
           out_mode == MM_NEW ? "new output" : out_mode == MM_INTO ? "into a poisoned output"
                                                                    : k_lay_names[lo],
           data == DATA_SMALLINT ? ", small-integer data" : "");
  gpux_dtype h = hdt(dt);
  int64_t nA = ref_shape_size(c->na, c->sa), nB = ref_shape_size(c->nb, c->sb);
  int64_t cnt = ref_shape_size(p.nout, p.out);
  void *ha = host_random(dt, nA, data, seed * 2 + 1), *hb = host_random(dt, nB, data, seed * 2 + 2);
  mview va, vb, vo;
  memset(&vo, 0, sizeof vo);
  mview_make(&va, dt, c->na, c->sa, la, ha);
  mview_make(&vb, dt, c->nb, c->sb, lb, hb);
  gpux_array_t o = NULL;
  gpux_status st;
  if (out_mode == MM_NEW) {
    st = gpux_matmul(&o, va.view, vb.view);
  } else {
    mview_make(&vo, dt, p.nout, p.out, out_mode == MM_INTO ? L_CONTIG : lo, NULL);
    st = gpux_matmul_into(vo.view, va.view, vb.view);
  }
  if (expected_status(dt) != GPUX_SUCCESS) {
    check_unsupported(st, dt, label);
    if (out_mode == MM_NEW) GT_ASSERT(o == NULL, "%s: *out set after an error", label);
  } else {
    gt_check_ok(st, label, __FILE__, __LINE__);
    void *got;
    if (out_mode == MM_NEW) {
      gt_check_shape(o, dt, p.nout, p.out, label);
      int64_t n = 0;
      got = download(o, dt, &n);
      GT_ASSERT(n == cnt, "%s: %" PRId64 " elements, expected %" PRId64, label, n, cnt);
    } else {
      got = mview_read(&vo, label);
    }
    ref_value *want = gt_malloc((size_t)(cnt > 0 ? cnt : 1) * sizeof *want);
    double *sabs = gt_malloc((size_t)(cnt > 0 ? cnt : 1) * sizeof *sabs);
    mm_ref(h, &p, ha, hb, want, sabs);
    compare_result(label, dt, p.k, got, want, sabs, cnt, data == DATA_SMALLINT, 0.0);
    free(got);
    free(want);
    free(sabs);
  }
  gpux_array_release(o);
  if (out_mode != MM_NEW) mview_free(&vo);
  mview_free(&va);
  mview_free(&vb);
  free(ha);
  free(hb);
}

static void run_matmul(gpux_dtype dt, const mmcase *c, lay la, lay lb, int out_mode,
                       data_kind data, uint64_t seed) {
  run_matmul_o(dt, c, la, lb, out_mode, L_STRIDED, data, seed);
}

static const mmcase k_mm[] = {
    {1, 1, {5}, {5}},                       /* 1-d x 1-d -> 0-d */
    {1, 2, {7}, {7, 3}},                    /* 1-d x 2-d -> (3,) */
    {2, 1, {4, 7}, {7}},                    /* 2-d x 1-d -> (4,) */
    {2, 2, {4, 7}, {7, 3}},                 /* 2-d x 2-d */
    {2, 2, {1, 1}, {1, 1}},
    {2, 2, {17, 65}, {65, 33}},
    {3, 3, {3, 4, 7}, {3, 7, 5}},           /* batched 3-d */
    {4, 4, {2, 3, 4, 7}, {2, 3, 7, 5}},     /* batched 4-d */
    {4, 3, {2, 1, 4, 7}, {3, 7, 5}},        /* (2,1,m,k) @ (3,k,n) -> (2,3,m,n) */
    {2, 3, {4, 7}, {3, 7, 5}},              /* (m,k) @ (b,k,n) */
    {3, 2, {3, 4, 7}, {7, 5}},              /* (b,m,k) @ (k,n) */
    {3, 1, {3, 4, 7}, {7}},                 /* (b,m,k) @ (k,) -> (b,m) */
    {1, 3, {7}, {3, 7, 5}},                 /* (k,) @ (b,k,n) -> (b,n) */
    {3, 3, {1, 4, 7}, {3, 7, 5}},
    {4, 4, {3, 1, 4, 7}, {1, 2, 7, 5}},     /* both broadcast */
    {6, 5, {2, 1, 2, 1, 3, 4}, {2, 1, 2, 4, 5}}, /* 6-d */
    {3, 3, {0, 4, 7}, {0, 7, 5}},           /* empty batch */
    {2, 2, {4, 0}, {0, 5}},                 /* k == 0: zeros */
    {3, 3, {6, 33, 65}, {6, 65, 17}},
    {3, 3, {2, 129, 70}, {2, 70, 131}}};
#define NMM (sizeof k_mm / sizeof k_mm[0])

static void test_matmul(void **state) {
  const tcase *tc = *state;
  gpux_dtype dt = tc->dt;
  use_path(tc->path);
  need_dtype(dt);
  uint64_t seed = 777 + (uint64_t)dt * 1000 + (uint64_t)tc->path * 100000;
  if (expected_status(dt) != GPUX_SUCCESS) {
    run_matmul(dt, &k_mm[3], L_CONTIG, L_CONTIG, MM_NEW, DATA_RANDOM, seed++);
    run_matmul(dt, &k_mm[6], L_CONTIG, L_CONTIG, MM_INTO, DATA_RANDOM, seed++);
    run_matmul(dt, &k_mm[0], L_CONTIG, L_CONTIG, MM_NEW, DATA_RANDOM, seed++);
    return;
  }
  if (auto_is_native(dt)) { /* routing only (auto_is_native) */
    run_matmul(dt, &k_mm[3], L_CONTIG, L_CONTIG, MM_NEW, DATA_RANDOM, seed++);
    run_matmul(dt, &k_mm[6], L_CONTIG, L_CONTIG, MM_INTO, DATA_RANDOM, seed++);
    run_matmul(dt, &k_mm[NMM - 1], L_SUB, L_CONTIG, MM_NEW, DATA_RANDOM, seed++);
    return;
  }
  for (size_t i = 0; i < NMM; i++) {
    run_matmul(dt, &k_mm[i], L_CONTIG, L_CONTIG, MM_NEW, DATA_RANDOM, seed++);
    run_matmul(dt, &k_mm[i], L_CONTIG, L_CONTIG, MM_INTO, DATA_RANDOM, seed++);
    if (ref_shape_size(k_mm[i].na, k_mm[i].sa) > 0 && ref_shape_size(k_mm[i].nb, k_mm[i].sb) > 0) {
      run_matmul(dt, &k_mm[i], L_CONTIG, L_CONTIG, MM_INTO_VIEW, DATA_SMALLINT, seed++);
      run_matmul_o(dt, &k_mm[i], L_CONTIG, L_CONTIG, MM_INTO_VIEW, (lay)(L_SUB + i % (L_COUNT - 1)),
                   DATA_RANDOM, seed++);
    }
  }
  /* vector results (1-d operands) into every output layout: a step-2 (n,) output is
   * written as C^T (the front end swaps A and B), negative steps through a copy */
  static const int vec_cases[] = {1, 2, 11, 12};
  for (size_t v = 0; v < sizeof vec_cases / sizeof vec_cases[0]; v++)
    for (int l = L_SUB; l < L_COUNT; l++)
      run_matmul_o(dt, &k_mm[vec_cases[v]], (lay)l, L_CONTIG, MM_INTO_VIEW, (lay)l, DATA_RANDOM,
                   seed++);
  /* operand views of the batched, broadcast and vector forms */
  static const int views_of[] = {1, 2, 3, 6, 7, 8, 9, 11, 12, 15, 19};
  for (size_t v = 0; v < sizeof views_of / sizeof views_of[0]; v++)
    for (int l = L_SUB; l < L_COUNT; l++) {
      const mmcase *c = &k_mm[views_of[v]];
      run_matmul(dt, c, (lay)l, L_CONTIG, MM_NEW, DATA_RANDOM, seed++);
      run_matmul(dt, c, L_CONTIG, (lay)l, MM_NEW, DATA_SMALLINT, seed++);
      run_matmul(dt, c, (lay)l, (lay)(L_COUNT - l), MM_INTO, DATA_RANDOM, seed++);
    }
}

/* ------------------------------------------------------------------ gemv, dot */

static void run_gemv(gpux_dtype dt, int64_t rows, int64_t cols, int ta, double alpha,
                     double beta, lay la, lay lx, lay ly, uint64_t seed) {
  char label[256];
  snprintf(label, sizeof label,
           "gemv %s %s: A (%" PRId64 ", %" PRId64 ") %c, alpha %g beta %g, A %s x %s y %s",
           gt_dtype_str(dt), path_str(g_path), rows, cols, ta ? 'T' : 'N', alpha, beta,
           k_lay_names[la], k_lay_names[lx], k_lay_names[ly]);
  gpux_dtype h = hdt(dt);
  int64_t lx_n = ta ? rows : cols, ly_n = ta ? cols : rows;
  const int64_t sa[2] = {rows, cols};
  void *ha = host_random(dt, rows * cols, DATA_RANDOM, seed * 3 + 1);
  void *hx = host_random(dt, lx_n, DATA_RANDOM, seed * 3 + 2);
  void *hy = beta != 0 ? host_random(dt, ly_n, DATA_RANDOM, seed * 3 + 3) : NULL;
  mview va, vx, vy;
  mview_make(&va, dt, 2, sa, la, ha);
  mview_make(&vx, dt, 1, &lx_n, lx, hx);
  mview_make(&vy, dt, 1, &ly_n, ly, hy);
  gpux_status st = gpux_gemv(vy.view, ta ? GPUX_TRANS : GPUX_NO_TRANS, alpha, va.view, vx.view, beta);
  if (expected_status(dt) != GPUX_SUCCESS) {
    check_unsupported(st, dt, label);
  } else {
    gt_check_ok(st, label, __FILE__, __LINE__);
    void *got = mview_read(&vy, label);
    ref_value *want = gt_malloc((size_t)ly_n * sizeof *want);
    double *sabs = gt_malloc((size_t)ly_n * sizeof *sabs);
    /* y (ly_n x 1) = op(A) (ly_n x lx_n) @ x (lx_n x 1) */
    ref_gemm(h, ta, 0, ly_n, 1, lx_n, alpha, ha, cols, hx, 1, beta, hy, 1, want, sabs);
    compare_result(label, dt, lx_n, got, want, sabs, ly_n, 0, beta);
    free(got);
    free(want);
    free(sabs);
  }
  mview_free(&va);
  mview_free(&vx);
  mview_free(&vy);
  free(ha);
  free(hx);
  free(hy);
}

static void run_dot(gpux_dtype dt, int64_t len, lay lx, lay ly, uint64_t seed) {
  char label[256];
  snprintf(label, sizeof label, "dot %s %s: length %" PRId64 ", x %s y %s", gt_dtype_str(dt),
           path_str(g_path), len, k_lay_names[lx], k_lay_names[ly]);
  gpux_dtype h = hdt(dt);
  void *hx = host_random(dt, len, DATA_RANDOM, seed * 2 + 1);
  void *hy = host_random(dt, len, DATA_RANDOM, seed * 2 + 2);
  mview vx, vy;
  mview_make(&vx, dt, 1, &len, lx, hx);
  mview_make(&vy, dt, 1, &len, ly, hy);
  gpux_array_t o = NULL;
  gpux_status st = gpux_dot(&o, vx.view, vy.view);
  double sv = -12345.0;
  if (expected_status(dt) != GPUX_SUCCESS) {
    check_unsupported(st, dt, label);
    GT_ASSERT(o == NULL, "%s: *out set after an error", label);
    check_unsupported(gpux_dot_scalar(&sv, vx.view, vy.view), dt, label);
  } else {
    gt_check_ok(st, label, __FILE__, __LINE__);
    gt_check_shape(o, dt, 0, NULL, label);
    int64_t n = 0;
    void *got = download(o, dt, &n);
    GT_ASSERT(n == 1, "%s: %" PRId64 " elements", label, n);
    ref_value want;
    double sabs, tol;
    ref_gemm(h, 0, 0, 1, 1, len, 1.0, hx, len, hy, 1, 0.0, NULL, 0, &want, &sabs);
    tol = gemm_tol(dt, len, sabs, ref_dtype_is_float(h) ? want.f : 0.0, 0);
    gt_compare_tol(label, h, got, &want, &tol, 1);
    /* dot_scalar: the same value as a double */
    GT_OK(gpux_dot_scalar(&sv, vx.view, vy.view));
    if (ref_dtype_is_float(h)) {
      double g = ref_load(h, got, 0).f;
      GT_ASSERT(fabs(sv - want.f) <= tol, "%s: dot_scalar %.17g, precise %.17g (tol %.3g)", label,
                sv, want.f, tol);
      GT_ASSERT(sv == g, "%s: dot_scalar %.17g but dot %.17g", label, sv, g);
    } else {
      GT_ASSERT(sv == ref_int_to_double(h, want.i), "%s: dot_scalar %.17g, expected %.17g", label,
                sv, ref_int_to_double(h, want.i));
    }
    free(got);
  }
  gpux_array_release(o);
  mview_free(&vx);
  mview_free(&vy);
  free(hx);
  free(hy);
}

static void test_gemv_dot(void **state) {
  const tcase *tc = *state;
  gpux_dtype dt = tc->dt;
  use_path(tc->path);
  need_dtype(dt);
  uint64_t seed = 4242 + (uint64_t)dt * 1000 + (uint64_t)tc->path * 100000;
  if (expected_status(dt) != GPUX_SUCCESS) {
    run_gemv(dt, 3, 4, 0, 1.0, 0.0, L_CONTIG, L_CONTIG, L_CONTIG, seed++);
    run_dot(dt, 5, L_CONTIG, L_CONTIG, seed++);
    return;
  }
  if (auto_is_native(dt)) { /* routing only (auto_is_native) */
    run_gemv(dt, 129, 130, 0, 2.0, -0.5, L_CONTIG, L_CONTIG, L_CONTIG, seed++);
    run_gemv(dt, 17, 33, 1, 1.0, 0.5, L_CONTIG, L_SUB, L_SUB, seed++);
    run_dot(dt, 4099, L_CONTIG, L_CONTIG, seed++);
    return;
  }
  static const int64_t shapes[][2] = {{1, 1}, {17, 33}, {300, 5}, {5, 300}, {129, 130}, {1, 65}};
  static const double ab[][2] = {{1, 0}, {2, -0.5}, {0, 1}, {-1, 1}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (int ta = 0; ta < 2; ta++)
      for (size_t i = 0; i < sizeof ab / sizeof ab[0]; i++)
        run_gemv(dt, shapes[s][0], shapes[s][1], ta, ab[i][0], ab[i][1], L_CONTIG, L_CONTIG,
                 L_CONTIG, seed++);
  for (int l = L_SUB; l < L_COUNT; l++)
    for (int ta = 0; ta < 2; ta++) {
      run_gemv(dt, 17, 33, ta, 1.0, 0.0, (lay)l, L_CONTIG, L_CONTIG, seed++);
      run_gemv(dt, 17, 33, ta, 1.0, 0.5, L_CONTIG, (lay)l, (lay)l, seed++);
      run_gemv(dt, 40, 9, ta, -1.0, 0.0, (lay)l, (lay)l, L_STRIDED, seed++);
    }
  static const int64_t lens[] = {1, 2, 7, 64, 1000, 4099};
  for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
    run_dot(dt, lens[i], L_CONTIG, L_CONTIG, seed++);
  for (int l = L_SUB; l < L_COUNT; l++) run_dot(dt, 257, (lay)l, (lay)(L_COUNT - l), seed++);
  run_dot(dt, 0, L_CONTIG, L_CONTIG, seed++); /* empty: 0 */
}

/* ------------------------------------------------------------------ big */

/* m x n x k with random data, a random sample of entries (and the four corners) checked. */
static void run_big(gpux_dtype dt, int64_t m, int64_t n, int64_t k, int ta, int tb, int nsample,
                    uint64_t seed) {
  char label[200];
  snprintf(label, sizeof label, "gemm %s %s: m %" PRId64 " n %" PRId64 " k %" PRId64 ", %c%c (sampled)",
           gt_dtype_str(dt), path_str(g_path), m, n, k, ta ? 'T' : 'N', tb ? 'T' : 'N');
  gpux_dtype h = hdt(dt);
  size_t es = ref_dtype_size(h);
  int64_t ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
  const int64_t sa[2] = {ar, ac}, sb[2] = {br, bc}, sc[2] = {m, n};
  void *ha = host_random(dt, ar * ac, DATA_RANDOM, seed * 2 + 1);
  void *hb = host_random(dt, br * bc, DATA_RANDOM, seed * 2 + 2);
  gpux_array_t a = upload(dt, 2, sa, ha), b = upload(dt, 2, sb, hb), c = NULL;
  GT_OK(gpux_array_full(&c, gt_ctx, GPUX_FLOAT32, 2, sc, NAN));
  if (dt != GPUX_FLOAT32) {
    gpux_array_t t = NULL;
    GT_OK(gpux_array_cast(&t, c, dt));
    gpux_array_release(c);
    c = t;
  }
  gt_check_ok(gpux_gemm(c, ta ? GPUX_TRANS : GPUX_NO_TRANS, tb ? GPUX_TRANS : GPUX_NO_TRANS, 1.0,
                        a, b, 0.0),
              label, __FILE__, __LINE__);
  int64_t cnt = 0;
  char *got = download(c, dt, &cnt);
  GT_ASSERT(cnt == m * n, "%s: %" PRId64 " elements", label, cnt);
  int ns = nsample + 4;
  ref_value *want = gt_malloc((size_t)ns * sizeof *want);
  double *sabs = gt_malloc((size_t)ns * sizeof *sabs), *tol = gt_malloc((size_t)ns * sizeof *tol);
  char *gs = gt_malloc((size_t)ns * es);
  gt_rng r;
  gt_rng_seed(&r, seed);
  for (int s = 0; s < ns; s++) {
    int64_t i, j;
    if (s < 4) {
      i = (s & 1) ? m - 1 : 0;
      j = (s & 2) ? n - 1 : 0;
    } else {
      i = gt_rng_int(&r, 0, m - 1);
      j = gt_rng_int(&r, 0, n - 1);
    }
    /* one entry: row i of op(A) and column j of op(B) through the offsets */
    const char *pa = (const char *)ha + (size_t)(ta ? i : i * ac) * es;
    const char *pb = (const char *)hb + (size_t)(tb ? j * bc : j) * es;
    ref_gemm(h, ta, tb, 1, 1, k, 1.0, pa, ac, pb, bc, 0.0, NULL, 0, &want[s], &sabs[s]);
    tol[s] = gemm_tol(dt, k, sabs[s], ref_dtype_is_float(h) ? want[s].f : 0.0, 0);
    memcpy(gs + (size_t)s * es, got + (size_t)(i * n + j) * es, es);
  }
  gt_compare_tol(label, h, gs, want, tol, ns);
  /* NaN anywhere (the poisoned C leaking through beta = 0, or an unwritten tile) */
  int64_t nans = 0;
  if (ref_dtype_is_float(h))
    for (int64_t i = 0; i < cnt; i++) nans += isnan(ref_load(h, got, i).f) != 0;
  GT_ASSERT(nans == 0, "%s: %" PRId64 " NaN results (C was NaN-poisoned, beta = 0)", label, nans);
  free(gs);
  free(want);
  free(sabs);
  free(tol);
  free(got);
  gpux_array_release(a);
  gpux_array_release(b);
  gpux_array_release(c);
  free(ha);
  free(hb);
}

static void test_big(void **state) {
  const tcase *tc = *state;
  use_path(tc->path);
  run_big(GPUX_FLOAT32, 1024, 1024, 1024, 0, 0, 1024, 11);
  run_big(GPUX_FLOAT32, 1000, 1001, 999, 1, 1, 512, 12);
  if (gt_info.fp64) run_big(GPUX_FLOAT64, 1024, 1024, 1024, 1, 0, 512, 13);
  if (expected_status(GPUX_INT32) == GPUX_SUCCESS)
    run_big(GPUX_INT32, 513, 385, 700, 0, 1, 512, 14);
  if (is_cuda()) {
    run_big(DT_F16, 1024, 1024, 1024, 0, 0, 512, 15);
    run_big(DT_BF16, 1024, 1024, 1024, 0, 1, 512, 16);
  }
}

/* ------------------------------------------------------------------ precision */

/* A (m x k) = 1 + (i + l + 1) 2^-16, B (k x n) = 1 - (l + 2j + 1) 2^-17 (exact in float32,
 * not in TF32 or half precision): the float32 result is within its tolerance only when the
 * low bits take part. */
static void run_precision(int64_t m, int64_t n, int64_t k, int ta, int tb, int expect_f32) {
  char label[160];
  snprintf(label, sizeof label, "precision float32 %s%s: m %" PRId64 " n %" PRId64 " k %" PRId64 " %c%c",
           path_str(g_path), g_tf32 ? " TF32 on" : "", m, n, k, ta ? 'T' : 'N', tb ? 'T' : 'N');
  float *ha = gt_malloc((size_t)(m * k) * 4), *hb = gt_malloc((size_t)(k * n) * 4);
  for (int64_t i = 0; i < m; i++)
    for (int64_t l = 0; l < k; l++)
      ha[ta ? l * m + i : i * k + l] = 1.0f + (float)((i + l) % 64 + 1) * 0x1p-16f;
  for (int64_t l = 0; l < k; l++)
    for (int64_t j = 0; j < n; j++)
      hb[tb ? j * k + l : l * n + j] = 1.0f - (float)((l + 2 * j) % 64 + 1) * 0x1p-17f;
  const int64_t sa[2] = {ta ? k : m, ta ? m : k}, sb[2] = {tb ? n : k, tb ? k : n}, sc[2] = {m, n};
  gpux_array_t a = NULL, b = NULL, c = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 2, sa, ha));
  GT_OK(gpux_array_from_host(&b, gt_ctx, GPUX_FLOAT32, 2, sb, hb));
  GT_OK(gpux_array_full(&c, gt_ctx, GPUX_FLOAT32, 2, sc, NAN));
  gt_check_ok(gpux_gemm(c, ta ? GPUX_TRANS : GPUX_NO_TRANS, tb ? GPUX_TRANS : GPUX_NO_TRANS, 1.0, a,
                        b, 0.0),
              label, __FILE__, __LINE__);
  float *got = gt_malloc((size_t)(m * n) * 4);
  GT_OK(gpux_array_read(c, got, (size_t)(m * n) * 4));
  ref_value *want = gt_malloc((size_t)(m * n) * sizeof *want);
  double *sabs = gt_malloc((size_t)(m * n) * sizeof *sabs), *tol = gt_malloc((size_t)(m * n) * sizeof *tol);
  ref_gemm(GPUX_FLOAT32, ta, tb, m, n, k, 1.0, ha, sa[1], hb, sb[1], 0.0, NULL, 0, want, sabs);
  int save = g_tf32;
  if (expect_f32) g_tf32 = 0;
  for (int64_t i = 0; i < m * n; i++) tol[i] = gemm_tol(GPUX_FLOAT32, k, sabs[i], want[i].f, 0);
  g_tf32 = save;
  gt_compare_tol(label, GPUX_FLOAT32, got, want, tol, m * n);
  free(got);
  free(want);
  free(sabs);
  free(tol);
  free(ha);
  free(hb);
  gpux_array_release(a);
  gpux_array_release(b);
  gpux_array_release(c);
}

static void test_precision(void **state) {
  const tcase *tc = *state;
  use_path(tc->path);
  for (int t = 0; t < 4; t++) {
    run_precision(4, 5, 8, t & 1, t >> 1, 1);
    run_precision(64, 64, 16, t & 1, t >> 1, 1);
    run_precision(130, 129, 8, t & 1, t >> 1, 1);
  }
}

/* TF32 (CUDA float32 only): off by default (float32 tolerance, the precision test passes);
 * on: the TF32 tolerance; off again: float32 accuracy is back. Elsewhere the option must
 * not cost float32 accuracy. */
static void test_tf32(void **state) {
  (void)state;
  for (int p = 0; p < NPATHS; p++) {
    if (k_paths[p] == GPUX_GEMM_VENDOR && g_vendor_state == 0) continue;
    g_path = k_paths[p];
    GT_OK(gpux_context_set_option(gt_ctx, GPUX_OPTION_GEMM_PATH, g_path));
    g_tf32 = 0;
    run_precision(64, 64, 16, 0, 0, 1);
    gpux_status st = gpux_context_set_option(gt_ctx, GPUX_OPTION_TF32, 1);
    if (!is_cuda() && st != GPUX_SUCCESS) {
      GT_ASSERT(st == GPUX_ERROR_UNSUPPORTED, "set_option(TF32, 1) on %s: %s: %s",
                gpux_backend_name(gt_info.backend), gpux_status_name(st), gpux_last_error_message());
      print_message("TF32 refused on this backend (%s)\n", gpux_last_error_message());
      break;
    }
    GT_OK(st);
    g_tf32 = 1;
    /* with TF32 on: the TF32 tolerance (CUDA auto and vendor), float32 accuracy elsewhere
     * (the native path never uses TF32) */
    int f32 = !is_cuda() || g_path == GPUX_GEMM_NATIVE;
    run_precision(64, 64, 16, 0, 0, f32);
    run_precision(130, 129, 8, 1, 0, f32);
    gcase g = gc(257, 129, 511, 0, 1, 1.0, 0.0);
    run_gemm(GPUX_FLOAT32, &g, 99);
    g = gc(64, 64, 64, 1, 1, 2.0, 0.5);
    g.data = DATA_SMALLINT; /* small integers are exact in TF32 too */
    run_gemm(GPUX_FLOAT32, &g, 98);
    /* float64 is never affected */
    if (gt_info.fp64) {
      g = gc(17, 33, 65, 0, 0, 1.0, 0.0);
      run_gemm(GPUX_FLOAT64, &g, 97);
    }
    GT_OK(gpux_context_set_option(gt_ctx, GPUX_OPTION_TF32, 0));
    g_tf32 = 0;
    run_precision(64, 64, 16, 0, 0, 1);
  }
  GT_OK(gpux_context_set_option(gt_ctx, GPUX_OPTION_GEMM_PATH, GPUX_GEMM_AUTO));
  g_path = GPUX_GEMM_AUTO;
}

/* ------------------------------------------------------------------ unsupported dtypes */

static void test_no_product_dtypes(void **state) {
  (void)state;
  for (int p = 0; p < NPATHS; p++) {
    g_path = k_paths[p];
    GT_OK(gpux_context_set_option(gt_ctx, GPUX_OPTION_GEMM_PATH, g_path));
    {
      const gpux_dtype dt = GPUX_BOOL;
      const int64_t s34[2] = {3, 4}, s45[2] = {4, 5}, s35[2] = {3, 5}, s4 = 4, s3 = 3;
      gpux_array_t a = NULL, b = NULL, c = NULL, x = NULL, y = NULL, o = NULL;
      char label[96];
      double v;
      snprintf(label, sizeof label, "%s products on the %s path", gt_dtype_str(dt), path_str(g_path));
      GT_OK(gpux_array_zeros(&a, gt_ctx, dt, 2, s34));
      GT_OK(gpux_array_zeros(&b, gt_ctx, dt, 2, s45));
      GT_OK(gpux_array_zeros(&c, gt_ctx, dt, 2, s35));
      GT_OK(gpux_array_zeros(&x, gt_ctx, dt, 1, &s4));
      GT_OK(gpux_array_zeros(&y, gt_ctx, dt, 1, &s3));
      check_unsupported(gpux_gemm(c, GPUX_NO_TRANS, GPUX_NO_TRANS, 1.0, a, b, 0.0), dt, label);
      check_unsupported(gpux_matmul(&o, a, b), dt, label);
      GT_ASSERT(o == NULL, "%s: *out set after an error", label);
      check_unsupported(gpux_matmul_into(c, a, b), dt, label);
      check_unsupported(gpux_gemv(y, GPUX_NO_TRANS, 1.0, a, x, 0.0), dt, label);
      check_unsupported(gpux_dot(&o, x, x), dt, label);
      check_unsupported(gpux_dot_scalar(&v, x, x), dt, label);
      gpux_array_release(a);
      gpux_array_release(b);
      gpux_array_release(c);
      gpux_array_release(x);
      gpux_array_release(y);
    }
  }
  GT_OK(gpux_context_set_option(gt_ctx, GPUX_OPTION_GEMM_PATH, GPUX_GEMM_AUTO));
  g_path = GPUX_GEMM_AUTO;
  gt_smoke(gt_ctx);
}

/* ------------------------------------------------------------------ errors */


/* status in {a, b} with a message */
static void expect_either(gpux_status a, gpux_status b, gpux_status got, const char *expr) {
  GT_ASSERT(got == a || got == b, "%s returned %s, expected %s or %s: %s", expr,
            gpux_status_name(got), gpux_status_name(a), gpux_status_name(b),
            gpux_last_error_message());
  const char *m = gpux_last_error_message();
  GT_ASSERT(m && m[0], "%s: empty error message", expr);
}
#define EXPECT_EITHER(a, b, call) expect_either((a), (b), (call), #call)

/* A small gemm that must work (the context is usable). */
static void gemm_works(void) {
  gcase g = gc(3, 4, 5, 0, 1, 1.0, 0.0);
  run_gemm(GPUX_FLOAT32, &g, 5);
  gt_smoke(gt_ctx);
}

static void test_errors(void **state) {
  (void)state;
  use_path(GPUX_GEMM_AUTO);
  const gpux_dtype f = GPUX_FLOAT32;
  const int64_t s23[2] = {2, 3}, s34[2] = {3, 4}, s24[2] = {2, 4}, s45[2] = {4, 5},
                s25[2] = {2, 5}, s35[2] = {3, 5}, s3 = 3, s4 = 4, s2 = 2;
  const int64_t b234[3] = {2, 3, 4}, b345[3] = {3, 4, 5}, b245[3] = {2, 4, 5};
  gpux_array_t a23 = NULL, a34 = NULL, a24 = NULL, a45 = NULL, a25 = NULL, a35 = NULL, v3 = NULL,
               v4 = NULL, v2 = NULL, t234 = NULL, t345 = NULL, t245 = NULL, d34 = NULL, i34 = NULL,
               o = NULL, z = NULL;
  double dv;
  GT_OK(gpux_array_ones(&a23, gt_ctx, f, 2, s23));
  GT_OK(gpux_array_ones(&a34, gt_ctx, f, 2, s34));
  GT_OK(gpux_array_ones(&a24, gt_ctx, f, 2, s24));
  GT_OK(gpux_array_ones(&a45, gt_ctx, f, 2, s45));
  GT_OK(gpux_array_ones(&a25, gt_ctx, f, 2, s25));
  GT_OK(gpux_array_ones(&a35, gt_ctx, f, 2, s35));
  GT_OK(gpux_array_ones(&v3, gt_ctx, f, 1, &s3));
  GT_OK(gpux_array_ones(&v4, gt_ctx, f, 1, &s4));
  GT_OK(gpux_array_ones(&v2, gt_ctx, f, 1, &s2));
  GT_OK(gpux_array_ones(&t234, gt_ctx, f, 3, b234));
  GT_OK(gpux_array_ones(&t345, gt_ctx, f, 3, b345));
  GT_OK(gpux_array_ones(&t245, gt_ctx, f, 3, b245));
  GT_OK(gpux_array_ones(&z, gt_ctx, f, 0, NULL));
  GT_OK(gpux_array_ones(&i34, gt_ctx, GPUX_INT32, 2, s34));
  if (gt_info.fp64) GT_OK(gpux_array_ones(&d34, gt_ctx, GPUX_FLOAT64, 2, s34));

  /* NULL handles and pointers */
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_gemm(NULL, GPUX_NO_TRANS, GPUX_NO_TRANS, 1, a23, a34, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_gemm(a24, GPUX_NO_TRANS, GPUX_NO_TRANS, 1, NULL, a34, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_gemm(a24, GPUX_NO_TRANS, GPUX_NO_TRANS, 1, a23, NULL, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_matmul(NULL, a23, a34));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_matmul(&o, NULL, a34));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_matmul(&o, a23, NULL));
  GT_ASSERT(o == NULL, "matmul: *out set after an error");
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_matmul_into(NULL, a23, a34));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_matmul_into(a24, NULL, a34));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_matmul_into(a24, a23, NULL));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_gemv(NULL, GPUX_NO_TRANS, 1, a34, v4, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_gemv(v3, GPUX_NO_TRANS, 1, NULL, v4, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_gemv(v3, GPUX_NO_TRANS, 1, a34, NULL, 0));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_dot(NULL, v3, v3));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_dot(&o, NULL, v3));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_dot(&o, v3, NULL));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_dot_scalar(NULL, v3, v3));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_dot_scalar(&dv, NULL, v3));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_dot_scalar(&dv, v3, NULL));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_context_set_option(NULL, GPUX_OPTION_GEMM_PATH, 0));

  /* gemm shapes: inner sizes differ; C of the wrong shape; transposes taken into account.
   * The message names the shapes. */
  GT_EXPECT_SHAPES(gpux_gemm(a25, GPUX_NO_TRANS, GPUX_NO_TRANS, 1, a23, a45, 0), 2, s23, 2, s45);
  GT_EXPECT_SHAPES(gpux_gemm(a25, GPUX_NO_TRANS, GPUX_NO_TRANS, 1, a34, a45, 0), 2, s34, 2, s25);
  GT_EXPECT_SHAPES(gpux_gemm(a24, GPUX_TRANS, GPUX_NO_TRANS, 1, a23, a34, 0), 2, s23, 2, s34);
  GT_EXPECT_SHAPES(gpux_gemm(a24, GPUX_NO_TRANS, GPUX_TRANS, 1, a23, a34, 0), 2, s23, 2, s34);
  GT_EXPECT_SHAPES(gpux_gemm(a35, GPUX_NO_TRANS, GPUX_NO_TRANS, 1, a24, a45, 0), 2, s24, 2, s35);
  /* where the transposes make the shapes fit, the product runs */
  GT_OK(gpux_gemm(a34, GPUX_TRANS, GPUX_NO_TRANS, 1, a23, a24, 0)); /* (3,2) @ (2,4) */
  GT_OK(gpux_gemm(a23, GPUX_NO_TRANS, GPUX_TRANS, 1, a24, a34, 0)); /* (2,4) @ (4,3) */

  /* gemm operands that are not 2-d */
  EXPECT_EITHER(GPUX_ERROR_INVALID_SHAPE, GPUX_ERROR_SHAPE_MISMATCH,
                gpux_gemm(a24, GPUX_NO_TRANS, GPUX_NO_TRANS, 1, v3, a34, 0));
  EXPECT_EITHER(GPUX_ERROR_INVALID_SHAPE, GPUX_ERROR_SHAPE_MISMATCH,
                gpux_gemm(a24, GPUX_NO_TRANS, GPUX_NO_TRANS, 1, a23, t345, 0));
  EXPECT_EITHER(GPUX_ERROR_INVALID_SHAPE, GPUX_ERROR_SHAPE_MISMATCH,
                gpux_gemm(v4, GPUX_NO_TRANS, GPUX_NO_TRANS, 1, a23, a34, 0));
  EXPECT_EITHER(GPUX_ERROR_INVALID_SHAPE, GPUX_ERROR_SHAPE_MISMATCH,
                gpux_gemm(t234, GPUX_NO_TRANS, GPUX_NO_TRANS, 1, t234, t345, 0));
  EXPECT_EITHER(GPUX_ERROR_INVALID_SHAPE, GPUX_ERROR_SHAPE_MISMATCH,
                gpux_gemm(a24, GPUX_NO_TRANS, GPUX_NO_TRANS, 1, z, a34, 0));
  /* transpose values outside the enum */
  EXPECT_EITHER(GPUX_ERROR_INVALID_ARGUMENT, GPUX_ERROR_INVALID_OP,
                gpux_gemm(a24, (gpux_transpose)3, GPUX_NO_TRANS, 1, a23, a34, 0));
  EXPECT_EITHER(GPUX_ERROR_INVALID_ARGUMENT, GPUX_ERROR_INVALID_OP,
                gpux_gemv(v3, (gpux_transpose)-1, 1, a34, v4, 0));

  /* matmul: inner sizes differ, batches that do not broadcast, 1-d lengths; the message
   * names both shapes */
  GT_EXPECT_SHAPES(gpux_matmul(&o, a23, a45), 2, s23, 2, s45);
  GT_ASSERT(o == NULL, "matmul: *out set after an error");
  GT_EXPECT_SHAPES(gpux_matmul(&o, t234, t345), 3, b234, 3, b345);
  {
    const int64_t b4[4] = {4, 2, 3, 4}; /* batch (4, 2) against (3,): 2 vs 3 */
    gpux_array_t t4 = NULL;
    GT_OK(gpux_array_ones(&t4, gt_ctx, f, 4, b4));
    GT_EXPECT_SHAPES(gpux_matmul(&o, t4, t345), 4, b4, 3, b345);
    GT_EXPECT_SHAPES(gpux_matmul(&o, t345, a23), 3, b345, 2, s23); /* inner 5 vs 2 */
    gpux_array_release(t4);
  }
  GT_EXPECT_SHAPES(gpux_matmul(&o, v3, v4), 1, &s3, 1, &s4);
  GT_EXPECT_SHAPES(gpux_matmul(&o, v3, a45), 1, &s3, 2, s45);
  GT_EXPECT_SHAPES(gpux_matmul(&o, a45, v4), 2, s45, 1, &s4);
  GT_ASSERT(o == NULL, "matmul: *out set after an error");
  /* 0-d operands have no matrix axes */
  EXPECT_EITHER(GPUX_ERROR_INVALID_SHAPE, GPUX_ERROR_SHAPE_MISMATCH, gpux_matmul(&o, z, a34));
  EXPECT_EITHER(GPUX_ERROR_INVALID_SHAPE, GPUX_ERROR_SHAPE_MISMATCH, gpux_matmul(&o, a34, z));
  GT_ASSERT(o == NULL, "matmul: *out set after an error");
  /* matmul_into: the output of another shape */
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_matmul_into(a25, a23, a34));
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_matmul_into(v2, v3, a34));    /* wants (4,) */
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_matmul_into(a24, t234, t245)); /* wants (2, 3, 5) */
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_matmul_into(v2, v3, v3));      /* wants () */
  {
    gpux_array_t ok = NULL;
    const int64_t s235[3] = {2, 3, 5};
    GT_OK(gpux_array_zeros(&ok, gt_ctx, f, 3, s235));
    GT_OK(gpux_matmul_into(ok, t234, t245));
    GT_OK(gpux_matmul_into(z, v3, v3));
    gpux_array_release(ok);
  }

  /* gemv and dot shapes */
  {
    gpux_array_t y3 = NULL;
    GT_OK(gpux_array_ones(&y3, gt_ctx, f, 1, &s3));
    GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_gemv(y3, GPUX_NO_TRANS, 1, a34, v3, 0)); /* x */
    GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_gemv(v2, GPUX_NO_TRANS, 1, a34, v4, 0)); /* y */
    GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_gemv(v3, GPUX_TRANS, 1, a34, y3, 0));    /* y */
    GT_OK(gpux_gemv(v4, GPUX_TRANS, 1, a34, y3, 0));
    GT_OK(gpux_gemv(y3, GPUX_NO_TRANS, 1, a34, v4, 0));
    gpux_array_release(y3);
  }
  EXPECT_EITHER(GPUX_ERROR_INVALID_SHAPE, GPUX_ERROR_SHAPE_MISMATCH,
                gpux_gemv(v3, GPUX_NO_TRANS, 1, v4, v4, 0));
  EXPECT_EITHER(GPUX_ERROR_INVALID_SHAPE, GPUX_ERROR_SHAPE_MISMATCH,
                gpux_gemv(a23, GPUX_NO_TRANS, 1, a34, v4, 0));
  EXPECT_EITHER(GPUX_ERROR_INVALID_SHAPE, GPUX_ERROR_SHAPE_MISMATCH,
                gpux_gemv(v3, GPUX_NO_TRANS, 1, a34, a45, 0));
  GT_EXPECT_SHAPES(gpux_dot(&o, v3, v4), 1, &s3, 1, &s4);
  GT_ASSERT(o == NULL, "dot: *out set after an error");
  GT_EXPECT(GPUX_ERROR_SHAPE_MISMATCH, gpux_dot_scalar(&dv, v3, v2));
  EXPECT_EITHER(GPUX_ERROR_INVALID_SHAPE, GPUX_ERROR_SHAPE_MISMATCH, gpux_dot(&o, a34, a34));
  EXPECT_EITHER(GPUX_ERROR_INVALID_SHAPE, GPUX_ERROR_SHAPE_MISMATCH, gpux_dot(&o, z, z));
  GT_ASSERT(o == NULL, "dot: *out set after an error");

  /* dtypes: operands that differ, an output of another dtype */
  {
    const int64_t s43[2] = {4, 3};
    gpux_array_t i43 = NULL, i44 = NULL, f44 = NULL;
    const int64_t s44[2] = {4, 4};
    GT_OK(gpux_array_ones(&i43, gt_ctx, GPUX_INT32, 2, s43));
    GT_OK(gpux_array_ones(&i44, gt_ctx, GPUX_INT32, 2, s44));
    GT_OK(gpux_array_ones(&f44, gt_ctx, f, 2, s44));
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_matmul(&o, i43, a34));
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_gemm(f44, GPUX_NO_TRANS, GPUX_NO_TRANS, 1, i43, a34, 0));
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_gemm(i44, GPUX_TRANS, GPUX_NO_TRANS, 1, a34, a34, 0));
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_matmul(&o, a34, i43));
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_matmul_into(i34, a34, f44));
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_gemv(v4, GPUX_NO_TRANS, 1, i43, v3, 0));
    gpux_array_t i3 = NULL;
    GT_OK(gpux_array_ones(&i3, gt_ctx, GPUX_INT32, 1, &s3));
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_dot(&o, v3, i3));
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_dot_scalar(&dv, i3, v3));
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_gemv(i3, GPUX_NO_TRANS, 1, a34, v4, 0));
    gpux_array_release(i3);
    gpux_array_release(i43);
    gpux_array_release(i44);
    gpux_array_release(f44);
  }
  gpux_array_release(o);
  o = NULL;
  if (d34) {
    GT_EXPECT(GPUX_ERROR_DTYPE_MISMATCH, gpux_matmul(&o, a23, d34));
    GT_ASSERT(o == NULL, "matmul: *out set after an error");
  }

  /* overlap: C is A or B, or a view sharing their memory */
  {
    const int64_t s44[2] = {4, 4};
    gpux_array_t q = NULL, r = NULL, qv = NULL;
    GT_OK(gpux_array_ones(&q, gt_ctx, f, 2, s44));
    GT_OK(gpux_array_ones(&r, gt_ctx, f, 2, s44));
    GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_gemm(q, GPUX_NO_TRANS, GPUX_NO_TRANS, 1, q, r, 0));
    GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_gemm(r, GPUX_NO_TRANS, GPUX_TRANS, 1, q, r, 1));
    GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_matmul_into(q, q, r));
    GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_matmul_into(r, q, r));
    const int64_t st[2] = {0, 0}, sp[2] = {4, 4}, stp[2] = {1, 1};
    GT_OK(gpux_array_slice(&qv, q, st, sp, stp));
    GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_matmul_into(qv, q, r));
    gpux_array_release(qv);
    qv = NULL;
    /* a view of the top half of q as the output of (2,4) @ (4,4) with A = the bottom half:
     * disjoint memory, must work; A = q: overlap */
    const int64_t t0[2] = {0, 0}, t1[2] = {2, 4}, b0[2] = {2, 0}, b1[2] = {4, 4};
    gpux_array_t top = NULL, bot = NULL;
    GT_OK(gpux_array_slice(&top, q, t0, t1, stp));
    GT_OK(gpux_array_slice(&bot, q, b0, b1, stp));
    GT_OK(gpux_matmul_into(top, bot, r));
    float hq[16];
    GT_OK(gpux_array_read(q, hq, sizeof hq));
    for (int i = 0; i < 16; i++)
      GT_ASSERT(hq[i] == (i < 8 ? 4.0f : 1.0f), "disjoint halves: q[%d] = %g", i, hq[i]);
    GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_matmul_into(top, q, r));
    const int64_t sv4 = 4;
    gpux_array_t flat = NULL, row0 = NULL;
    GT_OK(gpux_array_reshape(&flat, r, 1, (const int64_t[]){16}));
    GT_OK(gpux_array_slice(&row0, flat, (const int64_t[]){0}, &sv4, (const int64_t[]){1}));
    GT_EXPECT(GPUX_ERROR_OVERLAP, gpux_gemv(row0, GPUX_NO_TRANS, 1, r, v4, 0));
    gpux_array_release(flat);
    gpux_array_release(row0);
    gpux_array_release(top);
    gpux_array_release(bot);
    gpux_array_release(q);
    gpux_array_release(r);
  }

  /* arrays of another context */
  {
    gpux_context_t c2 = gt_context_new();
    gpux_array_t x = NULL, y = NULL;
    GT_OK(gpux_array_ones(&x, c2, f, 2, s34));
    GT_OK(gpux_array_ones(&y, c2, f, 1, &s4));
    GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_matmul(&o, a23, x));
    GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_gemm(a24, GPUX_NO_TRANS, GPUX_NO_TRANS, 1, a23, x, 0));
    GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_dot(&o, v4, y));
    GT_EXPECT(GPUX_ERROR_CONTEXT_MISMATCH, gpux_gemv(v3, GPUX_NO_TRANS, 1, a34, y, 0));
    GT_ASSERT(o == NULL, "*out set after an error");
    gpux_array_release(x);
    gpux_array_release(y);
    gpux_context_release(c2);
  }

  gpux_array_release(a23);
  gpux_array_release(a34);
  gpux_array_release(a24);
  gpux_array_release(a45);
  gpux_array_release(a25);
  gpux_array_release(a35);
  gpux_array_release(v3);
  gpux_array_release(v4);
  gpux_array_release(v2);
  gpux_array_release(t234);
  gpux_array_release(t345);
  gpux_array_release(t245);
  gpux_array_release(z);
  gpux_array_release(i34);
  gpux_array_release(d34);
  gemm_works();
}

/* ------------------------------------------------------------------ options */

static void test_options(void **state) {
  (void)state;
  /* path values outside the enum */
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_context_set_option(gt_ctx, GPUX_OPTION_GEMM_PATH, 3));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_context_set_option(gt_ctx, GPUX_OPTION_GEMM_PATH, -1));
  gemm_works();
  /* GPUX_GEMM, read when a context is created */
  static const char *const env[3] = {"vendor", "native", "auto"};
  for (int e = 0; e < 3; e++) {
    setenv("GPUX_GEMM", env[e], 1);
    gpux_context_t c2 = NULL;
    gpux_status st = gpux_context_create(&c2, gt_info.backend, gt_info.index);
    unsetenv("GPUX_GEMM");
    gt_check_ok(st, env[e], __FILE__, __LINE__);
    const int64_t s22[2] = {2, 2};
    const int32_t h[4] = {1, 2, 3, 4};
    gpux_array_t a = NULL, o = NULL;
    GT_OK(gpux_array_from_host(&a, c2, GPUX_INT32, 2, s22, h));
    st = gpux_matmul(&o, a, a);
    if (e == 0) {
      GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, st);
      GT_ASSERT(has_word(gpux_last_error_message(), "vendor"),
                "GPUX_GEMM=vendor: int32 matmul: the message does not name the path: \"%s\"",
                gpux_last_error_message());
    } else {
      GT_OK(st);
      int32_t got[4];
      GT_OK(gpux_array_read(o, got, sizeof got));
      GT_ASSERT(got[0] == 7 && got[1] == 10 && got[2] == 15 && got[3] == 22,
                "GPUX_GEMM=%s: [[1,2],[3,4]]^2 = [[%d,%d],[%d,%d]]", env[e], got[0], got[1],
                got[2], got[3]);
    }
    /* the option overrides the variable */
    gpux_array_release(o);
    o = NULL;
    GT_OK(gpux_context_set_option(c2, GPUX_OPTION_GEMM_PATH, GPUX_GEMM_NATIVE));
    GT_OK(gpux_matmul(&o, a, a));
    GT_OK(gpux_context_set_option(c2, GPUX_OPTION_GEMM_PATH, GPUX_GEMM_VENDOR));
    gpux_array_release(o);
    o = NULL;
    GT_EXPECT(GPUX_ERROR_UNSUPPORTED_DTYPE, gpux_matmul(&o, a, a));
    gpux_array_release(a);
    gpux_context_release(c2);
  }
  /* a value GPUX_GEMM does not know: an error at creation or a warning, never a crash */
  setenv("GPUX_GEMM", "fastest", 1);
  {
    gpux_context_t c2 = NULL;
    gpux_status st = gpux_context_create(&c2, gt_info.backend, gt_info.index);
    unsetenv("GPUX_GEMM");
    print_message("GPUX_GEMM=fastest: gpux_context_create gives %s (%s)\n", gpux_status_name(st),
                  st ? gpux_last_error_message() : "");
    GT_ASSERT(st == GPUX_SUCCESS || st == GPUX_ERROR_INVALID_ARGUMENT,
              "GPUX_GEMM=fastest: %s: %s", gpux_status_name(st), gpux_last_error_message());
    if (st == GPUX_SUCCESS) {
      const char *m = gpux_last_error_message();
      (void)m;
      gpux_context_release(c2);
    }
  }
  gemm_works();
}

/* ------------------------------------------------------------------ the reference itself */

static void test_ref_selfcheck(void **state) {
  (void)state;
  /* [[1,2],[3,4]] @ [[1,2],[3,4]] = [[7,10],[15,22]]; transposes; alpha, beta */
  const double a[4] = {1, 2, 3, 4};
  double c[4] = {1, 1, 1, 1}, sabs[4];
  ref_value o[4];
  ref_gemm(GPUX_FLOAT64, 0, 0, 2, 2, 2, 1.0, a, 2, a, 2, 0.0, NULL, 0, o, sabs);
  GT_ASSERT(o[0].f == 7 && o[1].f == 10 && o[2].f == 15 && o[3].f == 22, "ref NN");
  ref_gemm(GPUX_FLOAT64, 1, 0, 2, 2, 2, 1.0, a, 2, a, 2, 0.0, NULL, 0, o, sabs);
  GT_ASSERT(o[0].f == 10 && o[1].f == 14 && o[2].f == 14 && o[3].f == 20, "ref TN");
  ref_gemm(GPUX_FLOAT64, 0, 1, 2, 2, 2, 2.0, a, 2, a, 2, -1.0, c, 2, o, sabs);
  GT_ASSERT(o[0].f == 9 && o[1].f == 21 && o[2].f == 21 && o[3].f == 49, "ref NT alpha 2 beta -1");
  GT_ASSERT(sabs[0] == 11 && sabs[3] == 51, "ref sumabs");
  /* integers wrap; alpha converted as a cast (2.9 -> 2) */
  const int32_t big[2] = {INT32_MAX, 2};
  ref_gemm(GPUX_INT32, 0, 0, 1, 1, 2, 2.9, big, 2, big, 1, 0.0, NULL, 0, o, NULL);
  uint64_t u = ((uint64_t)INT32_MAX * (uint64_t)INT32_MAX + 4u) * 2u;
  GT_ASSERT(o[0].i == ref_wrap(GPUX_INT32, u), "ref int32 wrap: %" PRId64, o[0].i);
  /* the view helpers: a reversed 2-d view maps element 0 to the last base element in range */
  (void)c;
}

/* ------------------------------------------------------------------ main */

int main(void) {
  gt_init("test_gemm");
  enum { MAXT = 128 };
  static struct CMUnitTest tests[MAXT];
  static tcase cases[MAXT];
  static char names[MAXT][64];
  size_t n = 0;
  tests[n++] = (struct CMUnitTest){"ref_selfcheck", test_ref_selfcheck, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"errors", test_errors, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"options", test_options, NULL, NULL, NULL};
  tests[n++] = (struct CMUnitTest){"no_product_dtypes", test_no_product_dtypes, NULL, NULL, NULL};
  static const struct {
    const char *what;
    void (*fn)(void **);
    int per_dtype;
  } groups[] = {{"gemm", test_gemm, 1},
                {"matmul", test_matmul, 1},
                {"gemv_dot", test_gemv_dot, 1},
                {"precision", test_precision, 0},
                {"big", test_big, 0}};
  for (int p = 0; p < NPATHS; p++)
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
      for (int d = 0; d < (groups[g].per_dtype ? NDT : 1); d++) {
        cases[n] = (tcase){k_paths[p], groups[g].per_dtype ? k_dts[d] : GPUX_FLOAT32};
        if (groups[g].per_dtype)
          snprintf(names[n], sizeof names[n], "%s_%s_%s", k_path_names[p], groups[g].what,
                   gt_dtype_str(k_dts[d]));
        else
          snprintf(names[n], sizeof names[n], "%s_%s", k_path_names[p], groups[g].what);
        tests[n] = (struct CMUnitTest){names[n], groups[g].fn, NULL, NULL, &cases[n]};
        n++;
      }
  tests[n++] = (struct CMUnitTest){"tf32", test_tf32, NULL, NULL, NULL};
  int failed = gt_run("gemm", tests, n);
  gt_shutdown();
  return failed ? 1 : 0;
}
