/* gpux tests: native handles out and in (include/gpux/cuda.h, include/gpux/opencl.h).
 * The application's side is played by the vendor API itself: OpenCL through the ICD loader,
 * CUDA through libcuda.so.1 opened with dlopen (so the binary runs where no driver is).
 * Each case runs on the backend the context has; asking it for the other backend's handles
 * is GPUX_ERROR_WRONG_BACKEND. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_util.h"
#ifdef GPUX_TEST_HAVE_OPENCL
#include "gpux/opencl.h"
#endif
#ifdef GPUX_TEST_HAVE_CUDA
#include "gpux/cuda.h"
#endif

/* ---- the application's memory: one interface over both APIs ------------------------ */
typedef struct app_mem {
  void *h;      /* cl_mem, or the CUdeviceptr */
  size_t bytes;
} app_mem;

typedef struct app_api {
  const char *name;
  int (*alloc)(app_mem *m, size_t bytes);
  void (*free)(app_mem *m);
  void (*write)(app_mem *m, size_t off, const void *src, size_t n);
  void (*read)(app_mem *m, size_t off, void *dst, size_t n);
  gpux_status (*wrap)(gpux_array_t *out, gpux_context_t c, app_mem *m, size_t off,
                      gpux_dtype dt, int ndim, const int64_t *shape, const int64_t *strides,
                      gpux_deleter del, void *user);
  /* element [0, ..., 0] of a as (handle, byte offset) in the application's terms */
  void (*locate)(gpux_array_t a, void **h, size_t *off);
} app_api;

static const app_api *g_api;

#ifdef GPUX_TEST_HAVE_OPENCL
static cl_context cl_ctx(void) {
  cl_context c = NULL;
  GT_OK(gpux_opencl_context_get(&c, NULL, NULL, gt_ctx));
  return c;
}
static cl_command_queue cl_q(void) {
  cl_command_queue q = NULL;
  GT_OK(gpux_opencl_context_get(NULL, NULL, &q, gt_ctx));
  return q;
}
static int cl_alloc(app_mem *m, size_t bytes) {
  cl_int e;
  m->h = clCreateBuffer(cl_ctx(), CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &e);
  m->bytes = bytes;
  return e == CL_SUCCESS;
}
static void cl_free(app_mem *m) {
  if (m->h) clReleaseMemObject((cl_mem)m->h);
  m->h = NULL;
}
static void cl_write(app_mem *m, size_t off, const void *src, size_t n) {
  GT_ASSERT(clEnqueueWriteBuffer(cl_q(), (cl_mem)m->h, CL_TRUE, off, n, src, 0, NULL, NULL) ==
                CL_SUCCESS,
            "clEnqueueWriteBuffer");
}
static void cl_read(app_mem *m, size_t off, void *dst, size_t n) {
  GT_ASSERT(clEnqueueReadBuffer(cl_q(), (cl_mem)m->h, CL_TRUE, off, n, dst, 0, NULL, NULL) ==
                CL_SUCCESS,
            "clEnqueueReadBuffer");
}
static gpux_status cl_wrap(gpux_array_t *out, gpux_context_t c, app_mem *m, size_t off,
                           gpux_dtype dt, int ndim, const int64_t *shape,
                           const int64_t *strides, gpux_deleter del, void *user) {
  return gpux_opencl_array_wrap(out, c, (cl_mem)m->h, off, dt, ndim, shape, strides, del, user);
}
static void cl_locate(gpux_array_t a, void **h, size_t *off) {
  cl_mem mem = NULL;
  GT_OK(gpux_opencl_array_get(&mem, off, a));
  *h = mem;
}
static const app_api k_cl_api = {"OpenCL", cl_alloc, cl_free, cl_write, cl_read, cl_wrap,
                                 cl_locate};
#endif

#ifdef GPUX_TEST_HAVE_CUDA
static struct {
  void *lib;
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*HtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*DtoH)(void *, CUdeviceptr, size_t);
  CUresult (*Push)(CUcontext);
  CUresult (*Pop)(CUcontext *);
  CUresult (*StreamCreate)(CUstream *, unsigned);
  CUresult (*StreamDestroy)(CUstream);
  CUresult (*StreamSynchronize)(CUstream);
  CUresult (*CtxCreate)(CUcontext *, unsigned, CUdevice);
  CUresult (*CtxDestroy)(CUcontext);
  CUresult (*CtxSynchronize)(void);
} cu;
static int cu_load(void) {
  if (cu.lib) return 1;
  cu.lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!cu.lib) return 0;
#define SYM(f, s) *(void **)&cu.f = dlsym(cu.lib, s)
  SYM(MemAlloc, "cuMemAlloc_v2");
  SYM(MemFree, "cuMemFree_v2");
  SYM(HtoD, "cuMemcpyHtoD_v2");
  SYM(DtoH, "cuMemcpyDtoH_v2");
  SYM(Push, "cuCtxPushCurrent_v2");
  SYM(Pop, "cuCtxPopCurrent_v2");
  SYM(StreamCreate, "cuStreamCreate");
  SYM(StreamDestroy, "cuStreamDestroy_v2");
  SYM(StreamSynchronize, "cuStreamSynchronize");
  SYM(CtxCreate, "cuCtxCreate_v2");
  SYM(CtxDestroy, "cuCtxDestroy_v2");
  SYM(CtxSynchronize, "cuCtxSynchronize");
#undef SYM
  return cu.MemAlloc && cu.MemFree && cu.HtoD && cu.DtoH && cu.Push && cu.Pop &&
         cu.StreamCreate && cu.StreamDestroy && cu.StreamSynchronize && cu.CtxCreate &&
         cu.CtxDestroy && cu.CtxSynchronize;
}
static void cu_enter(gpux_context_t c) {
  CUcontext x = NULL;
  GT_OK(gpux_cuda_context_get(&x, NULL, NULL, c));
  GT_ASSERT(cu.Push(x) == CUDA_SUCCESS, "cuCtxPushCurrent");
}
static void cu_leave(void) {
  CUcontext x;
  (void)cu.Pop(&x);
}
static int cu_alloc(app_mem *m, size_t bytes) {
  CUdeviceptr p = 0;
  cu_enter(gt_ctx);
  CUresult r = cu.MemAlloc(&p, bytes ? bytes : 1);
  cu_leave();
  m->h = (void *)(uintptr_t)p;
  m->bytes = bytes;
  return r == CUDA_SUCCESS;
}
static void cu_free(app_mem *m) {
  cu_enter(gt_ctx);
  if (m->h) (void)cu.MemFree((CUdeviceptr)(uintptr_t)m->h);
  cu_leave();
  m->h = NULL;
}
static void cu_write(app_mem *m, size_t off, const void *src, size_t n) {
  cu_enter(gt_ctx);
  GT_ASSERT(cu.HtoD((CUdeviceptr)(uintptr_t)m->h + off, src, n) == CUDA_SUCCESS, "cuMemcpyHtoD");
  /* a copy from pageable memory may return before its DMA lands, and gpux's stream does not
   * wait for the NULL stream: the application orders its own work with gpux's (interop.md) */
  GT_ASSERT(cu.CtxSynchronize() == CUDA_SUCCESS, "cuCtxSynchronize");
  cu_leave();
}
static void cu_read(app_mem *m, size_t off, void *dst, size_t n) {
  GT_OK(gpux_context_synchronize(gt_ctx)); /* gpux's stream, then the NULL stream's copy */
  cu_enter(gt_ctx);
  GT_ASSERT(cu.DtoH(dst, (CUdeviceptr)(uintptr_t)m->h + off, n) == CUDA_SUCCESS, "cuMemcpyDtoH");
  cu_leave();
}
static gpux_status cu_wrap(gpux_array_t *out, gpux_context_t c, app_mem *m, size_t off,
                           gpux_dtype dt, int ndim, const int64_t *shape,
                           const int64_t *strides, gpux_deleter del, void *user) {
  return gpux_cuda_array_wrap(out, c, (CUdeviceptr)(uintptr_t)m->h + off, dt, ndim, shape,
                              strides, del, user);
}
static app_mem *g_cu_locate_base; /* the allocation locate answers relative to */
static void cu_locate(gpux_array_t a, void **h, size_t *off) {
  CUdeviceptr p = 0;
  GT_OK(gpux_cuda_array_get(&p, a));
  *h = g_cu_locate_base ? g_cu_locate_base->h : (void *)(uintptr_t)p;
  *off = g_cu_locate_base ? (size_t)(p - (CUdeviceptr)(uintptr_t)g_cu_locate_base->h) : 0;
}
static const app_api k_cu_api = {"CUDA", cu_alloc, cu_free, cu_write, cu_read, cu_wrap,
                                 cu_locate};
#endif

static gpux_backend_kind backend(void) {
  gpux_backend_kind k = GPUX_BACKEND_AUTO;
  GT_OK(gpux_context_backend(&k, gt_ctx));
  return k;
}

/* dst = value, through gpux's copy */
static void fill(gpux_array_t dst, double value) {
  gpux_array_t f = NULL;
  gpux_context_t c = NULL;
  gpux_dtype dt;
  int nd;
  int64_t shape[GPUX_MAX_DIMS];
  GT_OK(gpux_array_context(&c, dst));
  GT_OK(gpux_array_dtype(&dt, dst));
  GT_OK(gpux_array_ndim(&nd, dst));
  GT_OK(gpux_array_shape(shape, dst));
  GT_OK(gpux_array_full(&f, c, dt, nd, shape, value));
  GT_OK(gpux_array_copy_into(dst, f));
  gpux_array_release(f);
}

/* ---- deleters -------------------------------------------------------------------------- */
typedef struct del_count {
  int calls;
  app_mem *free_it; /* the deleter frees the application's memory, as a real one would */
} del_count;
static void count_deleter(void *user) {
  del_count *d = user;
  d->calls++;
  if (d->free_it) g_api->free(d->free_it);
}

/* ---- cases ----------------------------------------------------------------------------- */
/* gpux's own array, read through the native handles */
static void test_handles_out(void **state) {
  (void)state;
  const int64_t n = 1001;
  float *h = gt_malloc(n * sizeof *h), *got = gt_malloc(n * sizeof *got);
  gt_fill_random(h, GPUX_FLOAT32, n, GT_DOM_ANY, 11);
  gpux_array_t a = NULL, v = NULL, e = NULL;
  GT_OK(gpux_array_from_host(&a, gt_ctx, GPUX_FLOAT32, 1, &n, h));
  const int64_t start = 7, stop = n, step = 1;
  GT_OK(gpux_array_slice(&v, a, &start, &stop, &step));
  GT_OK(gpux_context_synchronize(gt_ctx));
#ifdef GPUX_TEST_HAVE_CUDA
  g_cu_locate_base = NULL;
#endif
  void *hv = NULL, *ha = NULL;
  size_t offv = 0, offa = 0;
  g_api->locate(a, &ha, &offa);
  g_api->locate(v, &hv, &offv);
  GT_ASSERT(ha != NULL, "no native handle");
  app_mem m = {ha, (size_t)n * 4};
  gt_poison_host(got, n * sizeof *got);
  g_api->read(&m, offa, got, (size_t)n * 4);
  GT_ASSERT(!memcmp(got, h, (size_t)n * 4), "%s: the native memory differs", g_api->name);
  /* the view: 7 elements on, in the same memory */
  app_mem mv = {hv, (size_t)(n - 7) * 4};
  g_api->read(&mv, offv, got, (size_t)(n - 7) * 4);
  GT_ASSERT(!memcmp(got, h + 7, (size_t)(n - 7) * 4), "%s: the view's native memory differs",
            g_api->name);
  /* an empty array has no memory */
  const int64_t zero = 0;
  GT_OK(gpux_array_empty(&e, gt_ctx, GPUX_FLOAT32, 1, &zero));
  g_api->locate(e, &hv, &offv);
  GT_ASSERT(hv == NULL && offv == 0, "an empty array has native memory");
  gpux_array_release(e);
  gpux_array_release(v);
  gpux_array_release(a);
  free(h);
  free(got);
}

/* the other backend's calls, and NULL arguments */
static void test_wrong_backend(void **state) {
  (void)state;
  gpux_array_t a = NULL;
  const int64_t n = 3;
  GT_OK(gpux_array_zeros(&a, gt_ctx, GPUX_INT32, 1, &n));
#ifdef GPUX_TEST_HAVE_OPENCL
  if (backend() != GPUX_BACKEND_OPENCL) {
    cl_context c;
    cl_mem mem;
    size_t off;
    GT_EXPECT(GPUX_ERROR_WRONG_BACKEND, gpux_opencl_context_get(&c, NULL, NULL, gt_ctx));
    GT_EXPECT(GPUX_ERROR_WRONG_BACKEND, gpux_opencl_array_get(&mem, &off, a));
  }
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_opencl_context_get(NULL, NULL, NULL, NULL));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_opencl_array_get(NULL, NULL, a));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_opencl_context_create(NULL, NULL, NULL, NULL));
#endif
#ifdef GPUX_TEST_HAVE_CUDA
  if (backend() != GPUX_BACKEND_CUDA) {
    CUcontext c;
    CUdeviceptr p;
    GT_EXPECT(GPUX_ERROR_WRONG_BACKEND, gpux_cuda_context_get(&c, NULL, NULL, gt_ctx));
    GT_EXPECT(GPUX_ERROR_WRONG_BACKEND, gpux_cuda_array_get(&p, a));
    gpux_array_t w = NULL;
    GT_EXPECT(GPUX_ERROR_WRONG_BACKEND,
              gpux_cuda_array_wrap(&w, gt_ctx, 4096, GPUX_INT32, 1, &n, NULL, NULL, NULL));
    GT_ASSERT(w == NULL, "out set on failure");
  }
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_cuda_context_get(NULL, NULL, NULL, NULL));
  GT_EXPECT(GPUX_ERROR_NULL_POINTER, gpux_cuda_context_create(NULL, NULL, NULL));
#endif
  gpux_array_release(a);
}

/* The application's buffer as an array: gpux reads it, writes it, and gives it back (the
 * deleter once, after the last view). */
static void test_wrap_contiguous(void **state) {
  (void)state;
  static const int64_t sizes[] = {1, 37, 4099};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
    const int64_t n = sizes[si];
    const size_t pad = 16; /* element 0 at byte 16 of the buffer */
    app_mem m = {0};
    GT_ASSERT(g_api->alloc(&m, pad + (size_t)n * 4), "%s: allocation", g_api->name);
    int32_t *h = gt_malloc(n * 4), *got = gt_malloc(n * 4);
    gt_fill_random(h, GPUX_INT32, n, GT_DOM_ANY, 100 + si);
    g_api->write(&m, pad, h, (size_t)n * 4);
    del_count d = {0, &m};
    gpux_array_t w = NULL, v = NULL, out = NULL;
#ifdef GPUX_TEST_HAVE_CUDA
    g_cu_locate_base = &m;
#endif
    GT_OK(g_api->wrap(&w, gt_ctx, &m, pad, GPUX_INT32, 1, &n, NULL, count_deleter, &d));
    /* where it is, as the native accessor says */
    void *hh = NULL;
    size_t off = 0;
    g_api->locate(w, &hh, &off);
    GT_ASSERT(hh == m.h && off == pad, "%s: wrapped array at (%p, %zu), expected (%p, %zu)",
              g_api->name, hh, off, m.h, pad);
    /* gpux reads it: out = w * 3 */
    GT_OK(gpux_binary_scalar(&out, GPUX_MUL, w, 3.0));
    gt_poison_host(got, (size_t)n * 4);
    GT_OK(gpux_array_read(out, got, (size_t)n * 4));
    for (int64_t i = 0; i < n; i++)
      GT_ASSERT(got[i] == (int32_t)((uint32_t)h[i] * 3u), "n=%lld: element %lld is %d, expected %d",
                (long long)n, (long long)i, got[i], (int32_t)((uint32_t)h[i] * 3u));
    /* gpux writes it: w += out (w = 4 h), seen by the application */
    GT_OK(gpux_binary_into(w, GPUX_ADD, w, out));
    GT_OK(gpux_context_synchronize(gt_ctx));
    gt_poison_host(got, (size_t)n * 4);
    g_api->read(&m, pad, got, (size_t)n * 4);
    for (int64_t i = 0; i < n; i++)
      GT_ASSERT(got[i] == (int32_t)((uint32_t)h[i] * 4u), "n=%lld: the application reads %d at "
                "%lld, expected %d", (long long)n, got[i], (long long)i,
                (int32_t)((uint32_t)h[i] * 4u));
    /* a view keeps the memory: the deleter runs after the last reference */
    const int64_t start = n - 1, stop = INT64_MIN, step = -1;
    GT_OK(gpux_array_slice(&v, w, &start, &stop, &step));
    gpux_array_release(w);
    GT_ASSERT(d.calls == 0, "the deleter ran while a view was alive");
    int32_t last = 0;
    const int64_t one = 1;
    gpux_array_t first = NULL;
    const int64_t s0 = 0, s1 = 1, st1 = 1;
    GT_OK(gpux_array_slice(&first, v, &s0, &s1, &st1));
    GT_OK(gpux_array_read(first, &last, sizeof last));
    (void)one;
    GT_ASSERT(last == (int32_t)((uint32_t)h[n - 1] * 4u), "the reversed view's first element");
    gpux_array_release(first);
    gpux_array_release(v);
    GT_ASSERT(d.calls == 1, "the deleter ran %d times, expected once", d.calls);
    GT_ASSERT(m.h == NULL, "the deleter did not free the memory");
    gpux_array_release(out);
    free(h);
    free(got);
  }
  /* no deleter: the memory stays the application's */
  app_mem m = {0};
  const int64_t n = 5;
  GT_ASSERT(g_api->alloc(&m, 20), "allocation");
  gpux_array_t w = NULL;
  GT_OK(g_api->wrap(&w, gt_ctx, &m, 0, GPUX_FLOAT32, 1, &n, NULL, NULL, NULL));
  fill(w, 2.5);
  gpux_array_release(w);
  float got[5];
  g_api->read(&m, 0, got, sizeof got);
  for (int i = 0; i < 5; i++) GT_ASSERT(got[i] == 2.5f, "fill through a wrapped array");
  g_api->free(&m);
}

/* Strided and reversed layouts: a 2-d window of a larger buffer, rows backwards. */
static void test_wrap_strided(void **state) {
  (void)state;
  const int64_t rows = 13, cols = 29, ld = 31;            /* buffer: rows x ld float64s */
  const int64_t shape[2] = {rows, 7}, strides[2] = {-ld, 3}; /* rows reversed, every 3rd */
  const size_t bytes = (size_t)(rows * ld) * 8;
  if (!gt_dtype_available(GPUX_FLOAT64)) return;
  app_mem m = {0};
  GT_ASSERT(g_api->alloc(&m, bytes), "allocation");
  double *h = gt_malloc(bytes), want = 0, got = 0;
  gt_fill_random(h, GPUX_FLOAT64, rows * ld, GT_DOM_ANY, 7);
  g_api->write(&m, 0, h, bytes);
  (void)cols;
  /* element [0, 0] is row rows-1, column 2 */
  const int64_t e0 = (rows - 1) * ld + 2;
  del_count d = {0, NULL};
  gpux_array_t w = NULL, s = NULL, c = NULL;
  GT_OK(g_api->wrap(&w, gt_ctx, &m, (size_t)e0 * 8, GPUX_FLOAT64, 2, shape, strides,
                    count_deleter, &d));
  int64_t got_strides[2];
  GT_OK(gpux_array_strides(got_strides, w));
  GT_ASSERT(got_strides[0] == -ld && got_strides[1] == 3, "strides kept");
  /* its contiguous copy against the host's indexing */
  GT_OK(gpux_array_contiguous(&c, w));
  double *hc = gt_malloc(rows * 7 * 8);
  GT_OK(gpux_array_read(c, hc, (size_t)(rows * 7) * 8));
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < 7; j++) {
      const double x = h[e0 - i * ld + j * 3];
      GT_ASSERT(hc[i * 7 + j] == x, "[%lld, %lld] is %g, expected %g", (long long)i,
                (long long)j, hc[i * 7 + j], x);
      want += x;
    }
  GT_OK(gpux_reduce_scalar(&got, GPUX_REDUCE_SUM, w));
  GT_ASSERT(got > want - 1e-9 * (1 + fabs(want)) && got < want + 1e-9 * (1 + fabs(want)),
            "sum %.17g, expected %.17g", got, want);
  (void)s;
  gpux_array_release(c);
  gpux_array_release(w);
  GT_ASSERT(d.calls == 1, "deleter calls %d", d.calls);
  g_api->free(&m);
  free(h);
  free(hc);
}

/* What is refused, with the application's memory left alone (no deleter call) */
static void test_wrap_errors(void **state) {
  (void)state;
  app_mem m = {0};
  GT_ASSERT(g_api->alloc(&m, 64), "allocation");
  del_count d = {0, NULL};
  gpux_array_t w = NULL;
  const int64_t n16 = 16, n17 = 17, n3 = 3, sh2[2] = {2, 4}, st0[2] = {0, 1};
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
            g_api->wrap(&w, gt_ctx, &m, 0, GPUX_FLOAT32, 1, &n17, NULL, count_deleter, &d));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
            g_api->wrap(&w, gt_ctx, &m, 8, GPUX_FLOAT32, 1, &n16, NULL, count_deleter, &d));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
            g_api->wrap(&w, gt_ctx, &m, 2, GPUX_FLOAT32, 1, &n3, NULL, count_deleter, &d));
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
            g_api->wrap(&w, gt_ctx, &m, 0, GPUX_FLOAT32, 2, sh2, st0, count_deleter, &d));
  const int64_t neg[1] = {-1};
  GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
            g_api->wrap(&w, gt_ctx, &m, 0, GPUX_FLOAT32, 1, &n3, neg, count_deleter, &d));
  GT_EXPECT(GPUX_ERROR_INVALID_DTYPE,
            g_api->wrap(&w, gt_ctx, &m, 0, (gpux_dtype)99, 1, &n3, NULL, count_deleter, &d));
  GT_EXPECT(GPUX_ERROR_INVALID_SHAPE,
            g_api->wrap(&w, gt_ctx, &m, 0, GPUX_FLOAT32, 1, neg, NULL, count_deleter, &d));
  const int64_t huge[2] = {3, 1}, hstr[2] = {INT64_MAX / 2, 1};
  GT_EXPECT(GPUX_ERROR_SIZE_OVERFLOW,
            g_api->wrap(&w, gt_ctx, &m, 0, GPUX_FLOAT32, 2, huge, hstr, count_deleter, &d));
  GT_ASSERT(w == NULL && d.calls == 0, "a refused wrap set out or called the deleter");
  /* an empty array needs no memory but keeps the deleter */
  const int64_t zero = 0;
  GT_OK(g_api->wrap(&w, gt_ctx, &m, 0, GPUX_FLOAT32, 1, &zero, NULL, count_deleter, &d));
  int64_t size = -1;
  GT_OK(gpux_array_size(&size, w));
  GT_ASSERT(size == 0, "size");
  gpux_array_release(w);
  GT_ASSERT(d.calls == 1, "the empty array's deleter ran %d times", d.calls);
#ifdef GPUX_TEST_HAVE_OPENCL
  if (backend() == GPUX_BACKEND_OPENCL) {
    /* a buffer of another OpenCL context */
    cl_device_id dev = NULL;
    GT_OK(gpux_opencl_context_get(NULL, &dev, NULL, gt_ctx));
    cl_int e;
    cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    GT_ASSERT(e == CL_SUCCESS, "clCreateContext");
    cl_mem om = clCreateBuffer(other, CL_MEM_READ_WRITE, 64, NULL, &e);
    GT_ASSERT(e == CL_SUCCESS, "clCreateBuffer");
    GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
              gpux_opencl_array_wrap(&w, gt_ctx, om, 0, GPUX_FLOAT32, 1, &n3, NULL, NULL, NULL));
    GT_EXPECT(GPUX_ERROR_NULL_POINTER,
              gpux_opencl_array_wrap(&w, gt_ctx, NULL, 0, GPUX_FLOAT32, 1, &n3, NULL, NULL, NULL));
    clReleaseMemObject(om);
    clReleaseContext(other);
  }
#endif
#ifdef GPUX_TEST_HAVE_CUDA
  if (backend() == GPUX_BACKEND_CUDA) {
    /* host memory the driver does not know, and a misaligned address */
    static float host[16];
    GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
              gpux_cuda_array_wrap(&w, gt_ctx, (CUdeviceptr)(uintptr_t)host, GPUX_FLOAT32, 1,
                                   &n3, NULL, NULL, NULL));
    GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT,
              gpux_cuda_array_wrap(&w, gt_ctx, (CUdeviceptr)(uintptr_t)m.h + 2, GPUX_FLOAT32, 1,
                                   &n3, NULL, NULL, NULL));
    GT_EXPECT(GPUX_ERROR_NULL_POINTER,
              gpux_cuda_array_wrap(&w, gt_ctx, 0, GPUX_FLOAT32, 1, &n3, NULL, NULL, NULL));
  }
#endif
  g_api->free(&m);
}

/* The context released before the wrapped array: the array keeps it, and the deleter runs
 * once at the end. */
static void test_wrap_outlives_context(void **state) {
  (void)state;
  gpux_context_t c = gt_context_new();
  app_mem m = {0};
  GT_ASSERT(g_api->alloc(&m, 4 * 9), "allocation");
  del_count d = {0, NULL};
  gpux_array_t w = NULL;
  const int64_t n = 9;
  /* the memory is gt_ctx's native context's; a second gpux context of gpux's own (OpenCL:
   * another cl_context) cannot take it, so this runs on gt_ctx's handles where it must */
  gpux_context_t on = gt_ctx;
#ifdef GPUX_TEST_HAVE_OPENCL
  if (backend() == GPUX_BACKEND_OPENCL) {
    cl_context cc;
    cl_device_id dev;
    cl_command_queue q;
    GT_OK(gpux_opencl_context_get(&cc, &dev, &q, gt_ctx));
    gpux_context_release(c);
    GT_OK(gpux_opencl_context_create(&c, cc, dev, q));
    on = c;
  }
#endif
#ifdef GPUX_TEST_HAVE_CUDA
  if (backend() == GPUX_BACKEND_CUDA) on = c; /* the same primary context */
#endif
  GT_OK(g_api->wrap(&w, on, &m, 0, GPUX_FLOAT32, 1, &n, NULL, count_deleter, &d));
  if (on == c) {
    gpux_context_release(c);
    c = NULL;
  }
  fill(w, -1.0);
  float got[9];
  GT_OK(gpux_array_read(w, got, sizeof got));
  for (int i = 0; i < 9; i++) GT_ASSERT(got[i] == -1.0f, "fill after the context's release");
  GT_ASSERT(d.calls == 0, "early deleter");
  gpux_array_release(w);
  GT_ASSERT(d.calls == 1, "deleter calls %d", d.calls);
  gpux_context_release(c);
  g_api->free(&m);
}

/* A context on the application's own handles: work goes to its queue / stream, its handles
 * survive the gpux context. */
static void adopted_round_trip(gpux_context_t c) {
  const int64_t n = 513;
  float *h = gt_malloc(n * 4), *got = gt_malloc(n * 4);
  gt_fill_random(h, GPUX_FLOAT32, n, GT_DOM_ANY, 5);
  gpux_array_t a = NULL, b = NULL;
  GT_OK(gpux_array_from_host(&a, c, GPUX_FLOAT32, 1, &n, h));
  GT_OK(gpux_unary(&b, GPUX_NEG, a));
  GT_OK(gpux_array_read(b, got, (size_t)n * 4));
  for (int64_t i = 0; i < n; i++) GT_ASSERT(got[i] == -h[i], "neg on the adopted context");
  gpux_array_release(a);
  gpux_array_release(b);
  free(h);
  free(got);
}

static void test_context_adopt(void **state) {
  (void)state;
#ifdef GPUX_TEST_HAVE_OPENCL
  if (backend() == GPUX_BACKEND_OPENCL) {
    cl_device_id dev = NULL;
    GT_OK(gpux_opencl_context_get(NULL, &dev, NULL, gt_ctx));
    cl_int e;
    cl_context cc = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    GT_ASSERT(e == CL_SUCCESS, "clCreateContext");
    for (int prof = 0; prof < 2; prof++) {
      cl_command_queue q =
          clCreateCommandQueue(cc, dev, prof ? CL_QUEUE_PROFILING_ENABLE : 0, &e);
      GT_ASSERT(e == CL_SUCCESS, "clCreateCommandQueue");
      gpux_context_t c = NULL;
      GT_OK(gpux_opencl_context_create(&c, cc, dev, q));
      cl_context gc;
      cl_device_id gd;
      cl_command_queue gq;
      GT_OK(gpux_opencl_context_get(&gc, &gd, &gq, c));
      GT_ASSERT(gc == cc && gd == dev && gq == q, "the adopted handles come back");
      adopted_round_trip(c);
      gpux_event_t ev = NULL;
      if (prof) {
        GT_OK(gpux_event_create(&ev, c));
        GT_OK(gpux_event_record(ev));
        GT_OK(gpux_event_synchronize(ev));
        gpux_event_release(ev);
      } else {
        GT_EXPECT(GPUX_ERROR_UNSUPPORTED, gpux_event_create(&ev, c));
      }
      gpux_context_release(c);
      /* the application's queue still works, and holds only its own reference */
      cl_uint refs = 0;
      GT_ASSERT(clFinish(q) == CL_SUCCESS, "the application's queue after the release");
      /* pocl frees its finished commands (each holds the queue) on its own threads, a little
       * after clFinish returns (one CI run read 2 here): wait up to 2 s for that; a reference
       * gpux kept would stay */
      for (int t = 0; t < 400; t++) {
        clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL);
        if (refs == 1) break;
        nanosleep(&(struct timespec){0, 5000000}, NULL);
      }
      GT_ASSERT(refs == 1, "the queue's reference count is %u after the release", refs);
      clReleaseCommandQueue(q);
    }
    /* a queue of another context, and an out-of-order queue */
    cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    cl_command_queue oq = clCreateCommandQueue(other, dev, 0, &e);
    gpux_context_t c = NULL;
    GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_opencl_context_create(&c, cc, dev, oq));
    GT_ASSERT(c == NULL, "out set on failure");
    cl_command_queue ooo =
        clCreateCommandQueue(cc, dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &e);
    if (e == CL_SUCCESS) {
      GT_EXPECT(GPUX_ERROR_INVALID_ARGUMENT, gpux_opencl_context_create(&c, cc, dev, ooo));
      clReleaseCommandQueue(ooo);
    }
    clReleaseCommandQueue(oq);
    clReleaseContext(other);
    cl_uint refs = 0;
    clGetContextInfo(cc, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    GT_ASSERT(refs == 1, "the context's reference count is %u after the releases", refs);
    clReleaseContext(cc);
  }
#endif
#ifdef GPUX_TEST_HAVE_CUDA
  if (backend() == GPUX_BACKEND_CUDA) {
    CUcontext pc = NULL;
    CUdevice dev = -1;
    GT_OK(gpux_cuda_context_get(&pc, &dev, NULL, gt_ctx));
    /* the primary context with a stream of the application's, then a context of its own */
    for (int own = 0; own < 2; own++) {
      CUcontext cc = pc;
      if (own) {
        GT_ASSERT(cu.CtxCreate(&cc, 0, dev) == CUDA_SUCCESS, "cuCtxCreate");
        cu_leave(); /* cuCtxCreate made it current */
      }
      GT_ASSERT(cu.Push(cc) == CUDA_SUCCESS, "push");
      CUstream s = NULL;
      GT_ASSERT(cu.StreamCreate(&s, 1 /* CU_STREAM_NON_BLOCKING */) == CUDA_SUCCESS,
                "cuStreamCreate");
      cu_leave();
      gpux_context_t c = NULL;
      GT_OK(gpux_cuda_context_create(&c, cc, s));
      CUcontext gc;
      CUdevice gd;
      CUstream gs;
      GT_OK(gpux_cuda_context_get(&gc, &gd, &gs, c));
      GT_ASSERT(gc == cc && gd == dev && gs == s, "the adopted handles come back");
      adopted_round_trip(c);
      gpux_context_release(c);
      GT_ASSERT(cu.Push(cc) == CUDA_SUCCESS, "push after the release");
      GT_ASSERT(cu.StreamSynchronize(s) == CUDA_SUCCESS, "the stream after the release");
      GT_ASSERT(cu.StreamDestroy(s) == CUDA_SUCCESS, "cuStreamDestroy");
      cu_leave();
      if (own) GT_ASSERT(cu.CtxDestroy(cc) == CUDA_SUCCESS, "cuCtxDestroy");
    }
    /* the NULL stream */
    gpux_context_t c = NULL;
    GT_OK(gpux_cuda_context_create(&c, pc, NULL));
    adopted_round_trip(c);
    gpux_context_release(c);
  }
#endif
}

int main(void) {
  gt_init("test_interop");
  gpux_backend_kind k = backend();
  g_api = NULL;
#ifdef GPUX_TEST_HAVE_OPENCL
  if (k == GPUX_BACKEND_OPENCL) g_api = &k_cl_api;
#endif
#ifdef GPUX_TEST_HAVE_CUDA
  if (k == GPUX_BACKEND_CUDA && cu_load()) g_api = &k_cu_api;
#endif
  if (!g_api) {
    printf("test_interop: no native API for the %s backend in this build\n", gpux_backend_name(k));
    gt_shutdown();
    return GT_EXIT_SKIP;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_handles_out),       cmocka_unit_test(test_wrong_backend),
      cmocka_unit_test(test_wrap_contiguous),   cmocka_unit_test(test_wrap_strided),
      cmocka_unit_test(test_wrap_errors),       cmocka_unit_test(test_wrap_outlives_context),
      cmocka_unit_test(test_context_adopt),
  };
  int failed = gt_run("interop", tests, sizeof tests / sizeof tests[0]);
  gt_shutdown();
  return failed ? 1 : 0;
}
