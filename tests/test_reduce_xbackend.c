/* gpux tests: CUDA and OpenCL give the same bits. In one process, a CUDA context and an
 * OpenCL context (an OpenCL GPU when there is one) reduce and scan identical random float32
 * and float64 inputs (float16, bfloat16, complex64 and complex128 too): sum, mean, var, std
 * (ddof 0 and 1), the three norms, min, max, argmax, cumsum and cumprod (inclusive and
 * exclusive), over everything, each axis of a 3-d array, two axes, rows of 100,000 (complex
 * cumprod: of 9000) and 2^22 + 3 elements; the results are compared with memcmp, and with
 * the canonical CPU reference (tests/ref). Exits 77 (skip) unless both backends have a device.
 * Not a cmocka binary: plain checks, a summary, exit 1 on any difference. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpux.h"
#include "ref.h"
#include "ref_complex_red.h"
#include "test_util.h"
#include "xbackend_util.h"

static int g_fail = 0, g_checks = 0;

typedef struct job {
  int scan; /* 0: reduction, 1: scan */
  int op;   /* gpux_reduce_op or gpux_scan_op */
  int naxes;
  int axes[3];
  int64_t ddof; /* var/std through gpux_var/gpux_std when > 0 */
  int exclusive;
} job;

static const char *job_str(char *buf, size_t cap, const job *j) {
  if (j->scan) {
    snprintf(buf, cap, "%s axis %d%s", j->op ? "cumprod" : "cumsum", j->axes[0],
             j->exclusive ? " exclusive" : "");
  } else if (j->naxes == GPUX_ALL_AXES) {
    snprintf(buf, cap, "%s all axes ddof %" PRId64, gpux_reduce_op_name((gpux_reduce_op)j->op), j->ddof);
  } else {
    snprintf(buf, cap, "%s axes", gpux_reduce_op_name((gpux_reduce_op)j->op));
    for (int k = 0; k < j->naxes; k++)
      snprintf(buf + strlen(buf), cap - strlen(buf), " %d", j->axes[k]);
    snprintf(buf + strlen(buf), cap - strlen(buf), " ddof %" PRId64, j->ddof);
  }
  return buf;
}

/* Runs j on an array of ctx; returns the result bytes and their count. */
static void *run_job(gpux_context_t ctx, const job *j, gpux_dtype dt, int ndim,
                     const int64_t *shape, const void *host, int64_t *n, gpux_dtype *rdt) {
  gpux_array_t a = NULL, o = NULL;
  CHECK(gpux_array_from_host(&a, ctx, dt, ndim, shape, host));
  if (j->scan) {
    CHECK(gpux_scan(&o, (gpux_scan_op)j->op, a, j->axes[0], j->exclusive));
  } else if (j->ddof > 0 && j->op == GPUX_REDUCE_VAR) {
    CHECK(gpux_var(&o, a, j->axes, j->naxes, j->ddof, 0));
  } else if (j->ddof > 0 && j->op == GPUX_REDUCE_STD) {
    CHECK(gpux_std(&o, a, j->axes, j->naxes, j->ddof, 0));
  } else {
    CHECK(gpux_reduce(&o, (gpux_reduce_op)j->op, a, j->axes, j->naxes, 0));
  }
  CHECK(gpux_array_size(n, o));
  CHECK(gpux_array_dtype(rdt, o));
  size_t bytes = (size_t)*n * gpux_dtype_size(*rdt);
  void *h = xmalloc(bytes);
  CHECK(gpux_array_read(o, h, bytes));
  gpux_array_release(o);
  gpux_array_release(a);
  return h;
}

/* The canonical reference of j (scans: the axis moved last and back). */
static void *reference(const job *j, gpux_dtype dt, int ndim, const int64_t *shape,
                       const void *host, int64_t n_out, gpux_dtype rdt) {
  void *out = xmalloc((size_t)n_out * gpux_dtype_size(rdt));
  const int cplx = dt == GPUX_COMPLEX64 || dt == GPUX_COMPLEX128;
  if (!j->scan) {
    int red[GPUX_MAX_DIMS] = {0};
    for (int d = 0; d < ndim; d++) red[d] = j->naxes == GPUX_ALL_AXES;
    for (int k = 0; j->naxes != GPUX_ALL_AXES && k < j->naxes; k++)
      red[j->axes[k] < 0 ? j->axes[k] + ndim : j->axes[k]] = 1;
    if (cplx)
      refc_reduce_axes_canon((gpux_reduce_op)j->op, dt, ndim, shape, host, red, j->ddof, out);
    else
      ref_reduce_axes_canon((gpux_reduce_op)j->op, dt, ndim, shape, host, red, j->ddof, out);
    return out;
  }
  int axis = j->axes[0] < 0 ? j->axes[0] + ndim : j->axes[0], perm[GPUX_MAX_DIMS], inv[GPUX_MAX_DIMS], k = 0;
  int64_t pshape[GPUX_MAX_DIMS], n = ref_shape_size(ndim, shape);
  for (int d = 0; d < ndim; d++)
    if (d != axis) perm[k++] = d;
  perm[k] = axis;
  for (int d = 0; d < ndim; d++) {
    inv[perm[d]] = d;
    pshape[d] = shape[perm[d]];
  }
  size_t es = gpux_dtype_size(dt), rs = gpux_dtype_size(rdt);
  void *px = xmalloc((size_t)n * es), *pc = xmalloc((size_t)n * rs);
  ref_permute(px, host, es, ndim, shape, perm);
  if (cplx)
    refc_scan_canon((gpux_scan_op)j->op, dt, n / shape[axis], shape[axis], px, j->exclusive, pc);
  else
    ref_scan_canon((gpux_scan_op)j->op, dt, n / shape[axis], shape[axis], px, j->exclusive, pc);
  ref_permute(out, pc, rs, ndim, pshape, inv);
  free(px);
  free(pc);
  return out;
}

static void compare(const char *what, gpux_context_t cu, gpux_context_t cl, const job *j,
                    gpux_dtype dt, int ndim, const int64_t *shape, const void *host) {
  char js[128], sh[128];
  int64_t n1, n2;
  gpux_dtype r1, r2;
  void *h1 = run_job(cu, j, dt, ndim, shape, host, &n1, &r1);
  void *h2 = run_job(cl, j, dt, ndim, shape, host, &n2, &r2);
  job_str(js, sizeof js, j);
  gt_shape_str(sh, sizeof sh, ndim, shape);
  g_checks++;
  size_t es = gpux_dtype_size(r1);
  if (n1 != n2 || r1 != r2 || memcmp(h1, h2, (size_t)n1 * es) != 0) {
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; n1 == n2 && i < n1; i++)
      if (memcmp((char *)h1 + i * es, (char *)h2 + i * es, es)) {
        if (first < 0) first = i;
        bad++;
      }
    printf("DIFFER  %s %s %s (%s): %" PRId64 " of %" PRId64 " results differ between CUDA and OpenCL",
           gpux_dtype_name(dt), sh, js, what, bad, n1);
    if (first >= 0) {
      double a = r1 == GPUX_FLOAT32 ? ((float *)h1)[first] : r1 == GPUX_FLOAT64 ? ((double *)h1)[first]
                                                                                : (double)((int64_t *)h1)[first];
      double b = r1 == GPUX_FLOAT32 ? ((float *)h2)[first] : r1 == GPUX_FLOAT64 ? ((double *)h2)[first]
                                                                                : (double)((int64_t *)h2)[first];
      printf(" (first [%" PRId64 "]: CUDA %.17g, OpenCL %.17g)", first, a, b);
    }
    printf("\n");
    g_fail++;
  } else {
    void *want = reference(j, dt, ndim, shape, host, n1, r1);
    int64_t bad = 0;
    for (int64_t i = 0; i < n1; i++)
      if (memcmp((char *)h1 + i * es, (char *)want + i * es, es)) bad++;
    if (bad) {
      printf("REF     %s %s %s (%s): the backends agree, %" PRId64 " of %" PRId64
             " results differ from the canonical CPU reference\n",
             gpux_dtype_name(dt), sh, js, what, bad, n1);
      g_fail++;
    }
    free(want);
  }
  free(h1);
  free(h2);
}

int main(void) {
  gpux_context_t cu = NULL, cl = NULL;
  if (open_pair("test_reduce_xbackend", &cu, &cl) != 0) return 77;
  gpux_device_info i1, i2;
  CHECK(gpux_context_device_info(&i1, cu));
  CHECK(gpux_context_device_info(&i2, cl));

  static const int red_ops[] = {GPUX_REDUCE_SUM,     GPUX_REDUCE_MEAN,    GPUX_REDUCE_VAR,
                                GPUX_REDUCE_STD,     GPUX_REDUCE_NORM_L1, GPUX_REDUCE_NORM_L2,
                                GPUX_REDUCE_NORM_MAX, GPUX_REDUCE_MIN,    GPUX_REDUCE_MAX,
                                GPUX_REDUCE_ARGMAX};
  const int64_t s3[3] = {37, 129, 211}, rows[2] = {7, 100000}, big[1] = {((int64_t)1 << 22) + 3};
  /* float16 and bfloat16 reduce in float32: the same canonical order, the same bits */
  static const gpux_dtype fdt[4] = {GPUX_FLOAT32, GPUX_FLOAT64, GPUX_FLOAT16, GPUX_BFLOAT16};
  for (int d = 0; d < 4; d++) {
    gpux_dtype dt = fdt[d];
    if (dt == GPUX_FLOAT64 && !(i1.fp64 && i2.fp64)) continue;
    int64_t n3 = ref_shape_size(3, s3), nr = ref_shape_size(2, rows);
    size_t es = gpux_dtype_size(dt);
    void *h3 = xmalloc((size_t)n3 * es), *hr = xmalloc((size_t)nr * es),
         *hb = xmalloc((size_t)big[0] * es), *hp = xmalloc((size_t)n3 * es);
    gt_fill_random(h3, dt, n3, GT_DOM_ANY, 1 + d);
    gt_fill_random(hr, dt, nr, GT_DOM_ANY, 3 + d);
    gt_fill_random(hb, dt, big[0], GT_DOM_ANY, 5 + d);
    /* factors near +-1 for cumprod */
    gt_rng r;
    gt_rng_seed(&r, 7 + d);
    for (int64_t i = 0; i < n3; i++) {
      ref_value v;
      v.f = gt_rng_uniform(&r, 0.99, 1.01) * ((gt_rng_u64(&r) & 1) ? -1 : 1);
      ref_store(dt, hp, i, v);
    }
    for (size_t o = 0; o < sizeof red_ops / sizeof red_ops[0]; o++) {
      int op = red_ops[o];
      job j;
      memset(&j, 0, sizeof j);
      j.op = op;
      int moment = op == GPUX_REDUCE_VAR || op == GPUX_REDUCE_STD;
      for (int64_t ddof = 0; ddof <= (moment ? 1 : 0); ddof++) {
        j.ddof = ddof;
        j.naxes = GPUX_ALL_AXES;
        compare("full", cu, cl, &j, dt, 3, s3, h3);
        compare("full, 2^22 + 3", cu, cl, &j, dt, 1, big, hb);
        j.naxes = 1;
        for (int ax = 0; ax < 3; ax++) {
          j.axes[0] = ax;
          compare("one axis", cu, cl, &j, dt, 3, s3, h3);
        }
        j.axes[0] = 1;
        compare("rows of 100,000", cu, cl, &j, dt, 2, rows, hr);
        j.axes[0] = 0;
        compare("columns of 7", cu, cl, &j, dt, 2, rows, hr);
        if (op != GPUX_REDUCE_ARGMAX) {
          j.naxes = 2;
          j.axes[0] = 0;
          j.axes[1] = 2;
          compare("two axes", cu, cl, &j, dt, 3, s3, h3);
          j.axes[0] = 1;
          j.axes[1] = 2;
          compare("two axes", cu, cl, &j, dt, 3, s3, h3);
        }
      }
    }
    for (int op = 0; op < 2; op++)
      for (int ex = 0; ex < 2; ex++) {
        job j;
        memset(&j, 0, sizeof j);
        j.scan = 1;
        j.op = op;
        j.exclusive = ex;
        j.naxes = 1;
        const void *src = op ? hp : h3;
        for (int ax = 0; ax < 3; ax++) {
          j.axes[0] = ax;
          compare("scan", cu, cl, &j, dt, 3, s3, src);
        }
        if (op == 0) {
          j.axes[0] = 1;
          compare("rows of 100,000", cu, cl, &j, dt, 2, rows, hr);
          j.axes[0] = 0;
          compare("2^22 + 3", cu, cl, &j, dt, 1, big, hb);
        }
      }
    free(h3);
    free(hr);
    free(hb);
    free(hp);
  }
  /* complex64 / complex128 (issue 23): sum, prod, mean, count_nonzero, var, std, cumsum,
   * cumprod, the same canonical order with the complex combine ops */
  static const gpux_dtype cdt[2] = {GPUX_COMPLEX64, GPUX_COMPLEX128};
  static const int cops[] = {GPUX_REDUCE_SUM, GPUX_REDUCE_PROD, GPUX_REDUCE_MEAN,
                             GPUX_REDUCE_COUNT_NONZERO, GPUX_REDUCE_VAR, GPUX_REDUCE_STD};
  for (int d = 0; d < 2; d++) {
    gpux_dtype dt = cdt[d];
    if (dt == GPUX_COMPLEX128 && !(i1.fp64 && i2.fp64)) continue;
    const gpux_dtype comp = d ? GPUX_FLOAT64 : GPUX_FLOAT32;
    int64_t n3 = ref_shape_size(3, s3), nr = ref_shape_size(2, rows);
    size_t es = gpux_dtype_size(dt);
    const int64_t prows[2] = {3, 9000}; /* cumprod rows of three tiles, from hp too */
    void *h3 = xmalloc((size_t)n3 * es), *hr = xmalloc((size_t)nr * es),
         *hb = xmalloc((size_t)big[0] * es), *hp = xmalloc((size_t)n3 * es);
    gt_fill_random(h3, comp, 2 * n3, GT_DOM_ANY, 11 + d);
    gt_fill_random(hr, comp, 2 * nr, GT_DOM_ANY, 13 + d);
    gt_fill_random(hb, comp, 2 * big[0], GT_DOM_ANY, 15 + d);
    /* factors of modulus near 1 at random angles for products */
    gt_rng r;
    gt_rng_seed(&r, 17 + d);
    for (int64_t i = 0; i < n3; i++) {
      const double m = gt_rng_uniform(&r, 0.99, 1.01), a = gt_rng_uniform(&r, -3.14, 3.14);
      ref_value v;
      v.f = m * cos(a);
      ref_store(comp, hp, 2 * i, v);
      v.f = m * sin(a);
      ref_store(comp, hp, 2 * i + 1, v);
    }
    for (size_t o = 0; o < sizeof cops / sizeof cops[0]; o++) {
      job j;
      memset(&j, 0, sizeof j);
      j.op = cops[o];
      const void *src = j.op == GPUX_REDUCE_PROD ? hp : h3;
      j.naxes = GPUX_ALL_AXES;
      compare("full", cu, cl, &j, dt, 3, s3, src);
      if (j.op == GPUX_REDUCE_SUM) compare("full, 2^22 + 3", cu, cl, &j, dt, 1, big, hb);
      j.naxes = 1;
      for (int ax = 0; ax < 3; ax++) {
        j.axes[0] = ax;
        compare("one axis", cu, cl, &j, dt, 3, s3, src);
      }
      if (j.op != GPUX_REDUCE_PROD) {
        j.axes[0] = 1;
        compare("rows of 100,000", cu, cl, &j, dt, 2, rows, hr);
        j.axes[0] = 0;
        compare("columns of 7", cu, cl, &j, dt, 2, rows, hr);
      }
      j.naxes = 2;
      j.axes[0] = 0;
      j.axes[1] = 2;
      compare("two axes", cu, cl, &j, dt, 3, s3, src);
    }
    for (int op = 0; op < 2; op++)
      for (int ex = 0; ex < 2; ex++) {
        job j;
        memset(&j, 0, sizeof j);
        j.scan = 1;
        j.op = op;
        j.exclusive = ex;
        j.naxes = 1;
        const void *src = op ? hp : h3;
        for (int ax = 0; ax < 3; ax++) {
          j.axes[0] = ax;
          compare("scan", cu, cl, &j, dt, 3, s3, src);
        }
        j.axes[0] = 1;
        if (op == 0) {
          compare("rows of 100,000", cu, cl, &j, dt, 2, rows, hr);
          j.axes[0] = 0;
          compare("2^22 + 3", cu, cl, &j, dt, 1, big, hb);
        } else {
          compare("rows of 9000", cu, cl, &j, dt, 2, prows, hp);
        }
      }
    free(h3);
    free(hr);
    free(hb);
    free(hp);
  }
  printf("test_reduce_xbackend: %d comparisons, %d differ\n", g_checks, g_fail);
  gpux_context_release(cl);
  gpux_context_release(cu);
  return g_fail ? 1 : 0;
}
