/* gpux tests: both kernel sets implement exactly the kernel names that the X-macro lists of
 * kernels/common/gpux_kernels.h define.
 *   CUDA:   the names listed from the compiled fatbin (GPUX_CUDA_KERNEL_NAMES_FILE, written by
 *           the target gpux_cuda_kernel_names), compared with the expected set.
 *           The CUDA set also has the GEMM kernels of GPUX_GEMM_DT_HALF (float16 and
 *           bfloat16 inputs), which the OpenCL set lacks.
 *   OpenCL: the embedded .cl sources are built on the first OpenCL device (with the options
 *           of CPU and of GPU devices: both forms of the reduce and scan kernels),
 *           CL_PROGRAM_KERNEL_NAMES is compared with the expected set; names with f64 or
 *           c128 may be absent only when the device lacks fp64.
 * This test does not use libgpux. Exits 77 when neither check can run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpux_kernels.h"
#include "gpux_random.h"
#include "gpux_sort.h"
#include "gpux_select.h"

#ifdef GPUX_TEST_HAVE_OPENCL
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#endif

/* ------------------------------------------------------------------ name lists */

typedef struct strlist {
  char **v;
  size_t n, cap;
} strlist;

static void sl_add(strlist *l, const char *s) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 256;
    l->v = realloc(l->v, l->cap * sizeof *l->v);
    if (!l->v) abort();
  }
  size_t len = strlen(s);
  l->v[l->n] = malloc(len + 1);
  if (!l->v[l->n]) abort();
  memcpy(l->v[l->n], s, len + 1);
  l->n++;
}

static void sl_free(strlist *l) {
  for (size_t i = 0; i < l->n; i++) free(l->v[i]);
  free(l->v);
  memset(l, 0, sizeof *l);
}

static int cmpstr(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sl_sort_unique(strlist *l) {
  qsort(l->v, l->n, sizeof *l->v, cmpstr);
  size_t k = 0;
  for (size_t i = 0; i < l->n; i++) {
    if (k && strcmp(l->v[k - 1], l->v[i]) == 0) {
      free(l->v[i]);
      continue;
    }
    l->v[k++] = l->v[i];
  }
  l->n = k;
}

static int sl_has(const strlist *l, const char *s) {
  return bsearch(&s, l->v, l->n, sizeof *l->v, cmpstr) != NULL;
}

/* The expected set, expanded from the X-macro lists. */
#define BIN_DT(op, dt) \
  GPUX_KN_LAYOUT(GPUX_KN_BINARY(#op, #dt), "c"), GPUX_KN_LAYOUT(GPUX_KN_BINARY(#op, #dt), "s"), \
      GPUX_KN_LAYOUT(GPUX_KN_BINARY(#op, #dt), "n"),
#define BIN_OP(op, id, DTL, res) DTL(BIN_DT, op)
static const char *const k_binary[] = {GPUX_BINARY_OPS(BIN_OP)};
#define UN_DT(op, dt) \
  GPUX_KN_LAYOUT(GPUX_KN_UNARY(#op, #dt), "c"), GPUX_KN_LAYOUT(GPUX_KN_UNARY(#op, #dt), "n"),
#define UN_OP(op, id, DTL, res) DTL(UN_DT, op)
static const char *const k_unary[] = {GPUX_UNARY_OPS(UN_OP)};
#define RED_DT(k, dt) \
  GPUX_KN_LAYOUT(GPUX_KN_REDUCE(#k, #dt), "r"), GPUX_KN_LAYOUT(GPUX_KN_REDUCE(#k, #dt), "c"),
#define RED_KIND(k, id, DTL, acc) DTL(RED_DT, k)
static const char *const k_reduce[] = {GPUX_REDUCE_KINDS(RED_KIND)};
/* the OpenCL GPU form's vector column kernels, gpux_reduce_<kind>_<dt>_cv (GPUX_RD_CVK_* of
 * kernels/cl/reduce.cl): float32 and int32 of the CUDA backend's RV_CVEC kinds, where the
 * kind has the dtype (asum, ssq and ssd are float kinds) */
#define RED_CV(k, dt) GPUX_KN_LAYOUT(GPUX_KN_REDUCE(#k, #dt), "cv"),
#define RED_CV_KIND(k) GPUX_REDUCE_CV_DT(RED_CV, k)
static const char *const k_reduce_cv_all[] = {GPUX_REDUCE_CV_KINDS(RED_CV_KIND)};
/* k_reduce_cv_all where the kind takes the dtype (asum, ssq and ssd are float kinds): the
 * pairs whose row kernel gpux_reduce_<kind>_<dt>_r is in k_reduce */
static const char *k_reduce_cv[sizeof k_reduce_cv_all / sizeof k_reduce_cv_all[0]];
static size_t reduce_cv_count(void) {
  static size_t count = (size_t)-1;
  if (count != (size_t)-1) return count;
  count = 0;
  for (size_t i = 0; i < sizeof k_reduce_cv_all / sizeof k_reduce_cv_all[0]; i++) {
    char row[128];
    size_t len = strlen(k_reduce_cv_all[i]); /* without its "_cv" */
    snprintf(row, sizeof row, "%.*s_r", (int)(len - 3), k_reduce_cv_all[i]);
    for (size_t j = 0; j < sizeof k_reduce / sizeof k_reduce[0]; j++)
      if (!strcmp(k_reduce[j], row)) k_reduce_cv[count++] = k_reduce_cv_all[i];
  }
  return count;
}
#define SCAN_DT(k, dt) GPUX_KN_SCAN(#k, #dt),
#define SCAN_KIND(k, id, DTL, acc) DTL(SCAN_DT, k)
static const char *const k_scan[] = {GPUX_SCAN_KINDS(SCAN_KIND)};
#define DT_NAME(a, dt) #dt,
static const char *const k_dt_all[] = {GPUX_DT_ALL(DT_NAME, _)};
static const char *const k_dt_where[] = {GPUX_DT_WHERE(DT_NAME, _)};
/* every real array dtype (arange, linspace), the half dtypes included */
static const char *const k_dt_storage[] = {GPUX_DT_STORAGE(DT_NAME, _)};
/* every array dtype, complex included (casts, fill) */
static const char *const k_dt_cast[] = {GPUX_DT_CAST(DT_NAME, _)};
/* native GEMM kernels: GPUX_GEMM_DT and GPUX_GEMM_DT_COMPLEX in both sets, GPUX_GEMM_DT_HALF
 * in the CUDA set only */
#define GEMM_NAME(a, dt) GPUX_KN_GEMM(#dt),
static const char *const k_gemm[] = {GPUX_GEMM_DT(GEMM_NAME, _) GPUX_GEMM_DT_COMPLEX(GEMM_NAME, _)};
static const char *const k_gemm_cuda[] = {GPUX_GEMM_DT_HALF(GEMM_NAME, _)};
/* random numbers: gpux_random_<kind>_<dt> for GPUX_RANDOM_KINDS, in both sets */
#define RANDOM_NAME(kind, dt) GPUX_KN_RANDOM(#kind, #dt),
#define RANDOM_KIND(kind, id, dts) dts(RANDOM_NAME, kind)
static const char *const k_random[] = {GPUX_RANDOM_KINDS(RANDOM_KIND)};
#define SIZE_ITEM(n) n,
static const int k_elem_sizes[] = {GPUX_ELEM_SIZES(SIZE_ITEM)};
/* the families that list their names whole in gpux_kernels.h; NULL ends it */
#define FAMILY_NAME(name) name,
#define FAMILY_LIST(list) list(FAMILY_NAME)
static const char *const k_family_lists[] = {GPUX_KN_FAMILY_LISTS(FAMILY_LIST) NULL};

/* cuda: 1 for the CUDA set (it also has the GPUX_GEMM_DT_HALF kernels), 2 for the OpenCL
 * GPU form's (it also has k_reduce_cv), 0 for the OpenCL CPU form's */
static strlist expected_names(int cuda) {
  strlist l = {0};
  char buf[128];
  for (size_t i = 0; i < sizeof k_binary / sizeof k_binary[0]; i++) sl_add(&l, k_binary[i]);
  for (size_t i = 0; i < sizeof k_unary / sizeof k_unary[0]; i++) sl_add(&l, k_unary[i]);
  for (size_t i = 0; i < sizeof k_reduce / sizeof k_reduce[0]; i++) sl_add(&l, k_reduce[i]);
  for (size_t i = 0; i < sizeof k_scan / sizeof k_scan[0]; i++) sl_add(&l, k_scan[i]);
  for (size_t i = 0; i < sizeof k_dt_where / sizeof k_dt_where[0]; i++) {
    const char *dt = k_dt_where[i];
    snprintf(buf, sizeof buf, GPUX_KN_LAYOUT(GPUX_KN_WHERE("%s"), "c"), dt), sl_add(&l, buf);
    snprintf(buf, sizeof buf, GPUX_KN_LAYOUT(GPUX_KN_WHERE("%s"), "n"), dt), sl_add(&l, buf);
  }
  size_t nst = sizeof k_dt_storage / sizeof k_dt_storage[0];
  for (size_t i = 0; i < nst; i++) {
    const char *dt = k_dt_storage[i];
    snprintf(buf, sizeof buf, GPUX_KN_ARANGE("%s"), dt), sl_add(&l, buf);
    snprintf(buf, sizeof buf, GPUX_KN_LINSPACE("%s"), dt), sl_add(&l, buf);
  }
  size_t nca = sizeof k_dt_cast / sizeof k_dt_cast[0];
  for (size_t i = 0; i < nca; i++) {
    const char *dt = k_dt_cast[i];
    snprintf(buf, sizeof buf, GPUX_KN_FILL("%s"), dt), sl_add(&l, buf);
    for (size_t j = 0; j < nca; j++) {
      snprintf(buf, sizeof buf, GPUX_KN_LAYOUT(GPUX_KN_CAST("%s", "%s"), "c"), dt, k_dt_cast[j]), sl_add(&l, buf);
      snprintf(buf, sizeof buf, GPUX_KN_LAYOUT(GPUX_KN_CAST("%s", "%s"), "n"), dt, k_dt_cast[j]), sl_add(&l, buf);
    }
  }
  for (size_t i = 0; i < sizeof k_gemm / sizeof k_gemm[0]; i++) sl_add(&l, k_gemm[i]);
  for (size_t i = 0; i < sizeof k_random / sizeof k_random[0]; i++) sl_add(&l, k_random[i]);
  if (cuda == 2)
    for (size_t i = 0; i < reduce_cv_count(); i++) sl_add(&l, k_reduce_cv[i]);
  if (cuda == 1)
    for (size_t i = 0; i < sizeof k_gemm_cuda / sizeof k_gemm_cuda[0]; i++)
      sl_add(&l, k_gemm_cuda[i]);
  /* the GPU kernels' standard float32 normal (no fma): CUDA and the OpenCL GPU form */
  if (cuda != 0) sl_add(&l, GPUX_KN_RANDOM_NORMAL_STD);
  for (size_t i = 0; i < sizeof k_elem_sizes / sizeof k_elem_sizes[0]; i++) {
    snprintf(buf, sizeof buf, GPUX_KN_COPY_N("%d"), k_elem_sizes[i]), sl_add(&l, buf);
    snprintf(buf, sizeof buf, GPUX_KN_COPY_T("%d"), k_elem_sizes[i]), sl_add(&l, buf);
  }
  for (size_t i = 0; k_family_lists[i]; i++) sl_add(&l, k_family_lists[i]);
  sl_sort_unique(&l);
  return l;
}

/* Compares a kernel set with the expected one; returns the number of problems. */
static int compare_sets(const char *what, strlist *actual, int have_fp64, int cuda) {
  strlist exp = expected_names(cuda);
  sl_sort_unique(actual);
  int missing = 0, extra = 0, f64_absent = 0;
  for (size_t i = 0; i < exp.n; i++) {
    if (sl_has(actual, exp.v[i])) continue;
    /* complex128's components are float64: its kernels go with them */
    if (!have_fp64 && (strstr(exp.v[i], "f64") || strstr(exp.v[i], "c128"))) {
      f64_absent++;
      continue;
    }
    if (missing < 40) print_error("%s: missing kernel %s\n", what, exp.v[i]);
    missing++;
  }
  for (size_t i = 0; i < actual->n; i++) {
    if (sl_has(&exp, actual->v[i])) continue;
    if (extra < 40) print_error("%s: kernel %s is not in the lists of gpux_kernels.h\n", what, actual->v[i]);
    extra++;
  }
  print_message("%s: %zu kernels, %zu expected, %d missing, %d not in the lists%s\n", what,
                actual->n, exp.n, missing, extra,
                f64_absent ? " (float64 kernels absent: no fp64 on this device)" : "");
  sl_free(&exp);
  return missing + extra;
}

static int g_checks_run = 0;

/* ------------------------------------------------------------------ CUDA */

static void test_cuda_kernel_names(void **state) {
  (void)state;
#ifdef GPUX_CUDA_KERNEL_NAMES_FILE
  const char *path = GPUX_CUDA_KERNEL_NAMES_FILE;
  FILE *f = path[0] ? fopen(path, "r") : NULL;
  if (!f) {
#ifdef GPUX_TEST_CUDA_NAMES_REQUIRED
    fail_msg("the CUDA kernel name list %s (built by gpux_cuda_kernel_names) is missing", path);
#else
    print_message("no CUDA kernel name list at '%s'\n", path);
    skip();
#endif
  }
  strlist names = {0};
  char line[512];
  while (fgets(line, sizeof line, f)) {
    size_t len = strlen(line);
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' ' ||
                   line[len - 1] == '\t'))
      line[--len] = '\0';
    char *s = line;
    while (*s == ' ' || *s == '\t') s++;
    if (*s) sl_add(&names, s);
  }
  fclose(f);
  g_checks_run++;
  int problems = compare_sets("CUDA fatbin", &names, 1, 1);
  sl_free(&names);
  if (problems) fail_msg("CUDA kernel set differs from gpux_kernels.h (%d problems)", problems);
#else
  print_message("CUDA backend not built\n");
  skip();
#endif
}

/* ------------------------------------------------------------------ OpenCL */

#ifdef GPUX_TEST_HAVE_OPENCL
typedef struct cl_source {
  const char *family;
  const unsigned char *text;
  const size_t *size;
} cl_source;
extern const cl_source gpux_test_cl_sources[];
extern const size_t gpux_test_cl_source_count;

static int first_device(cl_device_id *dev, char *desc, size_t len) {
  cl_uint np = 0;
  if (clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS || np == 0) return 0;
  cl_platform_id *ps = calloc(np, sizeof *ps);
  if (!ps) return 0;
  clGetPlatformIDs(np, ps, NULL);
  int found = 0;
  for (cl_uint i = 0; i < np && !found; i++) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, dev, &nd) != CL_SUCCESS || nd == 0) continue;
    cl_bool avail = CL_FALSE;
    clGetDeviceInfo(*dev, CL_DEVICE_AVAILABLE, sizeof avail, &avail, NULL);
    if (!avail) continue;
    char pname[128] = "", dname[128] = "";
    clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    clGetDeviceInfo(*dev, CL_DEVICE_NAME, sizeof dname, dname, NULL);
    snprintf(desc, len, "%s / %s", pname, dname);
    found = 1;
  }
  free(ps);
  return found;
}

static int device_has_fp64(cl_device_id dev) {
  cl_device_fp_config cfg = 0;
  if (clGetDeviceInfo(dev, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof cfg, &cfg, NULL) == CL_SUCCESS && cfg)
    return 1;
  char ext[8192] = "";
  clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
  return strstr(ext, "cl_khr_fp64") != NULL;
}

/* The two forms the backend builds (src/backend_opencl/cl_backend.c): CPU devices (pocl)
 * one element per work-item, exact launches and the CPU form of the reduce/scan kernels
 * (GPUX_CL_CPU); GPUs 4 elements per work-item and the GPU form. */
static const char *const k_cl_forms[2] = {
    "-DGPUX_ELEMS_PER_ITEM=1 -DGPUX_EXACT_LAUNCH -DGPUX_CL_CPU=1",
    "-DGPUX_ELEMS_PER_ITEM=4"};

/* Builds one source; appends its kernel names. Returns 0 on a build failure. */
static int build_names(cl_context ctx, cl_device_id dev, const cl_source *src, const char *form,
                       strlist *out) {
  const char *text = (const char *)src->text;
  size_t size = *src->size;
  cl_int e = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(ctx, 1, &text, &size, &e);
  if (e != CL_SUCCESS) {
    print_error("clCreateProgramWithSource(%s): %d\n", src->family, (int)e);
    return 0;
  }
  char opts[256];
  snprintf(opts, sizeof opts, "-cl-std=CL1.2 %s", form);
  e = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
  if (e != CL_SUCCESS) {
    size_t ll = 0;
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &ll);
    char *log = malloc(ll + 1);
    if (log) {
      log[0] = '\0';
      clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, ll, log, NULL);
      log[ll] = '\0';
    }
    print_error("clBuildProgram(%s.cl, \"%s\"): %d\n%.8000s\n", src->family, opts, (int)e,
                log ? log : "");
    free(log);
    clReleaseProgram(p);
    return 0;
  }
  size_t len = 0;
  clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &len);
  char *names = malloc(len + 1);
  if (!names) abort();
  names[0] = '\0';
  clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, len, names, NULL);
  names[len] = '\0';
  for (char *save = NULL, *t = strtok_r(names, ";", &save); t; t = strtok_r(NULL, ";", &save))
    if (*t) sl_add(out, t);
  free(names);
  clReleaseProgram(p);
  return 1;
}
#endif

static void test_opencl_kernel_names(void **state) {
  (void)state;
#ifdef GPUX_TEST_HAVE_OPENCL
  cl_device_id dev;
  char desc[300];
  if (!first_device(&dev, desc, sizeof desc)) {
    print_message("no OpenCL device (is POCL_CACHE_DIR writable?)\n");
    skip();
  }
  int fp64 = device_has_fp64(dev);
  print_message("OpenCL device: %s (fp64 %d)\n", desc, fp64);
  cl_int e;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
  assert_int_equal(e, CL_SUCCESS);
  g_checks_run++;
  int problems = 0;
  strlist sets[2] = {{0}, {0}};
  /* A GPU builds only the GPU form, the one the backend runs there (NVIDIA's compiler
   * takes minutes a form); CPU devices (pocl, in CI) check both, as does
   * GPUX_TEST_CL_FORMS=both anywhere. */
  cl_device_type type = 0;
  clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  const char *forms = getenv("GPUX_TEST_CL_FORMS");
  const int first = (type & CL_DEVICE_TYPE_GPU) && !(forms && !strcmp(forms, "both"));
  if (first) print_message("a GPU: the GPU form only (GPUX_TEST_CL_FORMS=both adds the CPU form)\n");
  for (int k = first; k < 2; k++) {
    for (size_t i = 0; i < gpux_test_cl_source_count; i++)
      if (!build_names(ctx, dev, &gpux_test_cl_sources[i], k_cl_forms[k], &sets[k])) problems++;
    char what[128];
    snprintf(what, sizeof what, "OpenCL (%s form: %s)", k ? "GPU" : "CPU", k_cl_forms[k]);
    problems += compare_sets(what, &sets[k], fp64, k ? 2 : 0);
  }
  sl_free(&sets[0]);
  sl_free(&sets[1]);
  clReleaseContext(ctx);
  if (problems) fail_msg("OpenCL kernel set differs from gpux_kernels.h (%d problems)", problems);
#else
  print_message("OpenCL backend not built\n");
  skip();
#endif
}

/* The expected set itself: sizes follow from the lists. */
static void test_expected_set(void **state) {
  (void)state;
  strlist exp = expected_names(0), exp_cuda = expected_names(1), exp_clgpu = expected_names(2);
  size_t nb = sizeof k_binary / sizeof k_binary[0], nu = sizeof k_unary / sizeof k_unary[0];
  size_t ndt = sizeof k_dt_all / sizeof k_dt_all[0];
  size_t nst = sizeof k_dt_storage / sizeof k_dt_storage[0];
  size_t nca = sizeof k_dt_cast / sizeof k_dt_cast[0];
  assert_int_equal(ndt, 11); /* f32 f64, 8 integers, bool */
  assert_int_equal(nst, 13); /* and the halves */
  assert_int_equal(nca, GPUX_KDT_COUNT); /* and complex64, complex128 */
  assert_int_equal(nca, 15);
  assert_int_equal(GPUX_KDT_f16, 6);
  assert_int_equal(GPUX_KDT_bf16, 7);
  size_t ngemm = sizeof k_gemm / sizeof k_gemm[0];
  size_t ngemm_half = sizeof k_gemm_cuda / sizeof k_gemm_cuda[0];
  assert_int_equal(ngemm, 12);     /* f32 f64, the 8 integer dtypes, c64 c128 */
  assert_int_equal(ngemm_half, 2); /* f16 bf16, CUDA only */
  /* binary: 5 arithmetic ops (add sub mul div pow) x 14 (2 float, 8 integer, 2 half, 2
   * complex) + minimum, maximum, mod x 12 + eq, ne and the 3 logical ops x 15 + lt le gt ge
   * x 13 + 3 bitwise ops x 9 (integers and bool) + 2 shifts x 8 integer dtypes, 3 layouts */
  assert_int_equal(nb, 3 * (5 * 14 + 3 * 12 + 5 * 15 + 4 * 13 + 3 * 9 + 2 * 8));
  /* unary: neg, abs x 14 + sign, relu x 12 + exp log sqrt sin cos x 6 (float32, float64,
   * the half dtypes, complex) + 9 float ops x 4 + logical_not x 15 + bitwise_not and
   * popcount x 8 integer dtypes + conj real imag angle x 2 complex, 2 layouts */
  assert_int_equal(nu, 2 * (2 * 14 + 2 * 12 + 5 * 6 + 9 * 4 + 15 + 2 * 8 + 4 * 2));
  size_t nr = sizeof k_reduce / sizeof k_reduce[0], ns = sizeof k_scan / sizeof k_scan[0];
  /* reduce: 6 numeric kinds x 12 (the 10 numeric and the 2 half) + argmin_p/argmax_p x 10
   * (the partials of a half input are float32) + any/all/cnt x 13 + 4 float kinds x 4,
   * layouts r and c; complex64 / complex128: sum, prod, any, all, cnt, ssd */
  assert_int_equal(nr, 2 * (6 * 12 + 2 * 10 + 3 * 13 + 4 * 4 + 6 * 2));
  assert_int_equal(GPUX_REDUCE_KIND_COUNT, 15);
  /* scan: sum, prod x 14 (the 10 numeric, the 2 half and the 2 complex) */
  assert_int_equal(ns, 2 * 14);
  assert_int_equal(GPUX_SCAN_KIND_COUNT, 2);
  /* random: uniform and normal x f32 f64, integers x the 8 integer dtypes, bernoulli x bool */
  size_t nrand = sizeof k_random / sizeof k_random[0];
  assert_int_equal(nrand, 2 * 2 + 8 + 1);
  assert_int_equal(GPUX_RANDOM_KIND_COUNT, 4);
  /* where x 15 dtypes x 2 layouts; arange and linspace over the 13 real dtypes; fill and
   * casts (every pair, c and n) over all 15; copies by size (1, 2, 4, 8, 16); native GEMM;
   * random */
  assert_int_equal(sizeof k_dt_where / sizeof k_dt_where[0], nca);
  /* the families that list their names whole in gpux_kernels.h: index (gather and put: 2
   * index dtypes x (5 element sizes x (gather, take, put x 2 scratch dtypes) + mark x 2 +
   * badval)), mask (compress, put, flags x 5 element sizes, one nonzero, starts x 4, one ids) and scatter (init, fin, search and the apply kernels
   * by 2 index dtypes x the 12 real numeric dtypes, bincount x 2 index dtypes, the exact
   * sums' scan x the 4 float dtypes), sort (img,
   * imgh and out x 13 key dtypes, onesweep and local x 2 image widths, widen), select (10
   * kinds x the 13 real dtypes and bool, pick, scan, pick12, map, gcnt) */
  const size_t nfam = sizeof k_family_lists / sizeof k_family_lists[0] - 1;
  assert_int_equal(nfam, 2 * (5 * 4 + 2 + 1) + (3 * 5 + 1 + 4 + 1) + (12 * 5 + 2 + 4) + (3 * 13 + 2 * 2 + 1) +
                             (13 * 10 + 5));
  assert_int_equal(exp.n, nb + nu + nr + ns + 2 * nca + 2 * nst + nca * (1 + 2 * nca) +
                              2 * 5 + ngemm + nrand + nfam);
  assert_int_equal(exp_cuda.n, exp.n + ngemm_half + 1); /* + gpux_random_normal_f32_std */
  /* the OpenCL GPU form: vector column kernels of 4 kinds x f32 i32 + 3 float kinds */
  assert_int_equal(reduce_cv_count(), 4 * 2 + 3);
  assert_int_equal(exp_clgpu.n, exp.n + 4 * 2 + 3 + 1); /* + gpux_random_normal_f32_std */
  print_message("expected kernel set: %zu names (CUDA: %zu)\n", exp.n, exp_cuda.n);
  sl_free(&exp);
  sl_free(&exp_cuda);
  sl_free(&exp_clgpu);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_expected_set),
      cmocka_unit_test(test_cuda_kernel_names),
      cmocka_unit_test(test_opencl_kernel_names),
  };
  int failed = cmocka_run_group_tests_name("kernel_coverage", tests, NULL, NULL);
  if (failed) return 1;
  if (g_checks_run == 0) {
    printf("test_kernel_coverage: SKIP: neither the CUDA nor the OpenCL kernel set could be checked\n");
    return 77;
  }
  return 0;
}
