/* Interop: the public calls of include/gpux/cuda.h and include/gpux/opencl.h, and the
 * wrapping of the application's memory as arrays.
 *
 * libgpux links neither driver: the native handles pass through as the pointers (and, for
 * CUDA, the integers) they are to the backend the context runs on. Where the build has the
 * vendors' headers (GPUX_INTEROP_CUDA_H, GPUX_INTEROP_OPENCL_H) this file includes the public
 * headers, so the compiler checks these definitions against their prototypes; elsewhere it
 * declares the same types as the vendors' headers do. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpux.h"
#include "internal.h"

#ifdef GPUX_INTEROP_CUDA_H
#include "gpux/cuda.h"
#else /* cuda.h's types (the driver API's ABI) */
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
#endif
#ifdef GPUX_INTEROP_OPENCL_H
#include "gpux/opencl.h"
#else /* cl.h's types */
typedef struct _cl_context *cl_context;
typedef struct _cl_device_id *cl_device_id;
typedef struct _cl_command_queue *cl_command_queue;
typedef struct _cl_mem *cl_mem;
#endif

/* ---- arrays on the application's memory -------------------------------------------- */
/* The header of a wrapped array (shape, strides: NULL gives row-major contiguous ones) and
 * its extent: the lowest and highest element offsets, each dim's span (shape - 1) * stride
 * and their sums within int64 and, in bytes, within the address space; no two indices on
 * one element (a stride of 0). */
static gpux_status wrap_header(struct gpux_array *h, int64_t *lo, int64_t *hi, gpux_dtype dt,
                               int ndim, const int64_t *shape, const int64_t *strides) {
  int64_t size = 0;
  GPUX__CHECK(gpux__check_dtype(dt, "dtype"));
  GPUX__CHECK(gpux__check_shape(ndim, shape, &size, dt));
  memset(h, 0, sizeof *h);
  h->dtype = dt;
  h->ndim = ndim;
  h->size = size;
  int64_t c = 1;
  for (int d = ndim - 1; d >= 0; d--) {
    h->shape[d] = shape[d];
    h->strides[d] = strides ? strides[d] : c;
    c *= shape[d] ? shape[d] : 1;
  }
  *lo = *hi = 0;
  if (size == 0) return GPUX_SUCCESS;
  const int64_t lim = INT64_MAX / (int64_t)gpux_dtype_size(dt);
  for (int d = 0; d < ndim; d++) {
    const int64_t n1 = shape[d] - 1, st = h->strides[d];
    if (n1 > 0 && st == 0)
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                             "stride 0 on dimension %d of size %lld: its elements would alias",
                             d, (long long)shape[d]);
    if (n1 > 0 && (st > lim / n1 || st < -(lim / n1)))
      return gpux__set_error(GPUX_ERROR_SIZE_OVERFLOW,
                             "stride %lld on dimension %d of size %lld overflows", (long long)st,
                             d, (long long)shape[d]);
    const int64_t span = n1 * st;
    if (span < 0 ? *lo < -lim - span : *hi > lim - span)
      return gpux__set_error(GPUX_ERROR_SIZE_OVERFLOW, "the strides' extent overflows");
    if (span < 0) *lo += span;
    else *hi += span;
  }
  return GPUX_SUCCESS;
}

/* The array of header h (extent lo..hi, from wrap_header) with element [0, ..., 0] at element
 * offset elem0 from the start of `native`, which the backend wraps up to the highest element */
static gpux_status wrap_region(struct gpux_array **out, struct gpux_context *ctx, void *native,
                               int64_t elem0, struct gpux_array tmp, int64_t lo, int64_t hi,
                               gpux_deleter deleter, void *user) {
  const int64_t es = (int64_t)gpux_dtype_size(tmp.dtype);
  const int64_t size = tmp.size;
  tmp.ctx = ctx;
  if (elem0 < 0 || elem0 + lo < 0)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "the strides reach %lld elements before the start of the memory",
                           (long long)-(elem0 + lo));
  if (elem0 > INT64_MAX / es - hi - 1)
    return gpux__set_error(GPUX_ERROR_SIZE_OVERFLOW, "offset plus extent overflows");
  const uint64_t bytes = size > 0 ? (uint64_t)(elem0 + hi + 1) * (uint64_t)es : 0;

  struct gpux_array *a = calloc(1, sizeof *a);
  gpux__storage *st = calloc(1, sizeof *st);
  if (!a || !st) {
    free(a);
    free(st);
    return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  }
  gpux_status s = ctx->be->mem_wrap(ctx->b, native, bytes, &st->blk.buf);
  if (s != GPUX_SUCCESS) {
    free(a);
    free(st);
    return s;
  }
  *a = tmp;
  a->offset = elem0;
  st->blk.size = (size_t)bytes;
  st->refs = 1;
  st->wrapped = 1;
  st->deleter = deleter;
  st->user = user;
  a->st = st;
  gpux__context_retain(ctx);
  *out = a;
  return GPUX_SUCCESS;
}

gpux_status gpux__array_wrap_native(struct gpux_array **out, struct gpux_context *ctx,
                                    void *native, uint64_t byte_offset, gpux_dtype dt,
                                    int ndim, const int64_t *shape, const int64_t *strides,
                                    gpux_deleter deleter, void *user) {
  struct gpux_array h;
  int64_t lo, hi;
  GPUX__CHECK(wrap_header(&h, &lo, &hi, dt, ndim, shape, strides));
  GPUX__NEED(ctx, GPUX__Q_INTEROP, 0, -1, -1);
  const uint64_t es = gpux_dtype_size(dt);
  if (ctx->kind == GPUX_BACKEND_CUDA) {
    /* a device address: the region starts lo elements before element [0, ..., 0] */
    const uint64_t p0 = (uint64_t)(uintptr_t)native + byte_offset;
    if (!p0) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "the device address is 0");
    if (p0 % es)
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                             "device address 0x%llx is not aligned to %s's %llu bytes",
                             (unsigned long long)p0, gpux_dtype_name(dt),
                             (unsigned long long)es);
    const uint64_t base = p0 - (uint64_t)-lo * es;
    if (base > p0)
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "the strides reach below address 0");
    return wrap_region(out, ctx, (void *)(uintptr_t)base, -lo, h, lo, hi, deleter, user);
  }
  /* a buffer handle: element [0, ..., 0] at byte_offset of it */
  if (!native) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "the buffer is NULL");
  if (byte_offset % es || byte_offset / es > (uint64_t)INT64_MAX)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "byte offset %llu is not a multiple of %s's %llu bytes",
                           (unsigned long long)byte_offset, gpux_dtype_name(dt),
                           (unsigned long long)es);
  return wrap_region(out, ctx, native, (int64_t)(byte_offset / es), h, lo, hi, deleter, user);
}

/* The context of `kind` that a call about native handles needs. */
static gpux_status check_kind(const struct gpux_context *ctx, gpux_backend_kind kind,
                              const char *what) {
  if (!ctx) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s is NULL", what);
  if (ctx->kind != kind)
    return gpux__set_error(GPUX_ERROR_WRONG_BACKEND,
                           "the %s runs on the %s backend, not %s: it has no %s handles", what,
                           gpux_backend_name(ctx->kind), gpux_backend_name(kind),
                           kind == GPUX_BACKEND_CUDA ? "CUDA" : "OpenCL");
  GPUX__NEED(ctx, GPUX__Q_INTEROP, 0, -1, -1);
  return GPUX_SUCCESS;
}

/* The CUstream or cl_command_queue of stream s, for the public getters of both backends
 * (both handle types are pointers) */
static gpux_status stream_native(void **out, gpux_stream_t s, gpux_backend_kind kind) {
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "the output is NULL");
  *out = NULL;
  if (!s) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "the gpux stream is NULL");
  GPUX__CHECK(check_kind(s->ctx, kind, "stream's context"));
  return s->ctx->be->queue_native(s->q, out);
}

static gpux_status check_out_array(struct gpux_array **out, const char *what) {
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s is NULL", what);
  *out = NULL;
  return GPUX_SUCCESS;
}

/* ---- CUDA (include/gpux/cuda.h) ---------------------------------------------------- */
GPUX_API gpux_status gpux_cuda_context_create(gpux_context_t *out, CUcontext context,
                                              CUstream stream) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  if (!context) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "the CUDA context is NULL");
  const gpux__native n = {(void *)context, NULL, 0, (void *)stream};
  return gpux__context_adopt(out, GPUX_BACKEND_CUDA, &n);
}

GPUX_API gpux_status gpux_cuda_context_get(CUcontext *context, CUdevice *device,
                                           CUstream *stream, gpux_context_t ctx) {
  GPUX__API_FN();
  GPUX__CHECK(check_kind(ctx, GPUX_BACKEND_CUDA, "context"));
  gpux__native n = {0};
  GPUX__CHECK(ctx->be->native_get(ctx->b, &n));
  if (context) *context = (CUcontext)n.context;
  if (device) *device = (CUdevice)n.ordinal;
  if (stream) *stream = (CUstream)n.queue;
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_cuda_stream_get(CUstream *stream, gpux_stream_t s) {
  GPUX__API_FN();
  return stream_native((void **)stream, s, GPUX_BACKEND_CUDA);
}

GPUX_API gpux_status gpux_cuda_array_wrap(gpux_array_t *out, gpux_context_t ctx, CUdeviceptr ptr,
                                          gpux_dtype dt, int ndim, const int64_t *shape,
                                          const int64_t *strides, gpux_deleter deleter,
                                          void *user_data) {
  GPUX__API_FN();
  GPUX__CHECK(check_out_array(out, "out"));
  GPUX__CHECK(check_kind(ctx, GPUX_BACKEND_CUDA, "context"));
  return gpux__array_wrap_native(out, ctx, (void *)(uintptr_t)ptr, 0, dt, ndim, shape, strides,
                                 deleter, user_data);
}

GPUX_API gpux_status gpux_cuda_array_get(CUdeviceptr *ptr, gpux_array_t a) {
  GPUX__API_FN();
  if (!ptr) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "ptr is NULL");
  *ptr = 0;
  GPUX__CHECK(gpux__check_array(a, "array"));
  GPUX__CHECK(check_kind(a->ctx, GPUX_BACKEND_CUDA, "array's context"));
  if (a->st)
    *ptr = (CUdeviceptr)(uintptr_t)a->st->blk.buf +
           (CUdeviceptr)a->offset * (CUdeviceptr)gpux_dtype_size(a->dtype);
  return GPUX_SUCCESS;
}

/* ---- OpenCL (include/gpux/opencl.h) ------------------------------------------------ */
GPUX_API gpux_status gpux_opencl_context_create(gpux_context_t *out, cl_context context,
                                                cl_device_id device, cl_command_queue queue) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  if (!context || !device || !queue)
    return gpux__set_error(GPUX_ERROR_NULL_POINTER, "the OpenCL %s is NULL",
                           !context ? "context" : !device ? "device" : "command queue");
  const gpux__native n = {(void *)context, (void *)device, 0, (void *)queue};
  return gpux__context_adopt(out, GPUX_BACKEND_OPENCL, &n);
}

GPUX_API gpux_status gpux_opencl_context_get(cl_context *context, cl_device_id *device,
                                             cl_command_queue *queue, gpux_context_t ctx) {
  GPUX__API_FN();
  GPUX__CHECK(check_kind(ctx, GPUX_BACKEND_OPENCL, "context"));
  gpux__native n = {0};
  GPUX__CHECK(ctx->be->native_get(ctx->b, &n));
  if (context) *context = (cl_context)n.context;
  if (device) *device = (cl_device_id)n.device;
  if (queue) *queue = (cl_command_queue)n.queue;
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_opencl_stream_get(cl_command_queue *queue, gpux_stream_t s) {
  GPUX__API_FN();
  return stream_native((void **)queue, s, GPUX_BACKEND_OPENCL);
}

GPUX_API gpux_status gpux_opencl_array_wrap(gpux_array_t *out, gpux_context_t ctx, cl_mem mem,
                                            size_t offset_bytes, gpux_dtype dt, int ndim,
                                            const int64_t *shape, const int64_t *strides,
                                            gpux_deleter deleter, void *user_data) {
  GPUX__API_FN();
  GPUX__CHECK(check_out_array(out, "out"));
  GPUX__CHECK(check_kind(ctx, GPUX_BACKEND_OPENCL, "context"));
  return gpux__array_wrap_native(out, ctx, (void *)mem, offset_bytes, dt, ndim, shape, strides,
                                 deleter, user_data);
}

GPUX_API gpux_status gpux_opencl_array_get(cl_mem *mem, size_t *offset_bytes, gpux_array_t a) {
  GPUX__API_FN();
  if (!mem || !offset_bytes)
    return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s is NULL", !mem ? "mem" : "offset_bytes");
  *mem = NULL;
  *offset_bytes = 0;
  GPUX__CHECK(gpux__check_array(a, "array"));
  GPUX__CHECK(check_kind(a->ctx, GPUX_BACKEND_OPENCL, "array's context"));
  if (a->st) {
    *mem = (cl_mem)a->st->blk.buf;
    *offset_bytes = (size_t)a->offset * gpux_dtype_size(a->dtype);
  }
  return GPUX_SUCCESS;
}
