/* DLPack (include/gpux/dlpack.h): gpux arrays to and from DLPack tensors, both ABIs.
 *
 * Export: the tensor holds a view of the array (a second handle on its memory, which keeps
 * the memory and the context alive) and its own shape and strides, in one allocation with the
 * managed tensor; its deleter releases the view. Import: device memory of the context's
 * backend becomes a wrapped array (interop.c) whose deleter calls the tensor's; host memory
 * and read-only tensors are copied into a new array and handed back at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpux.h"
#include "internal.h"

#ifdef GPUX_HAVE_DLPACK
#include "gpux/dlpack.h"

/* ---- dtypes and devices ----------------------------------------------------------------- */
static const struct {
  uint8_t code, bits;
} k_dl_dtype[] = {
    [GPUX_FLOAT32] = {kDLFloat, 32},  [GPUX_FLOAT64] = {kDLFloat, 64},
    [GPUX_INT32] = {kDLInt, 32},      [GPUX_INT64] = {kDLInt, 64},
    [GPUX_UINT8] = {kDLUInt, 8},      [GPUX_BOOL] = {kDLBool, 8},
    [GPUX_FLOAT16] = {kDLFloat, 16},  [GPUX_BFLOAT16] = {kDLBfloat, 16},
    [GPUX_INT8] = {kDLInt, 8},        [GPUX_INT16] = {kDLInt, 16},
    [GPUX_UINT16] = {kDLUInt, 16},    [GPUX_UINT32] = {kDLUInt, 32},
    [GPUX_UINT64] = {kDLUInt, 64},
    [GPUX_COMPLEX64] = {kDLComplex, 64}, [GPUX_COMPLEX128] = {kDLComplex, 128},
};
#define N_DL_DTYPES ((int)(sizeof k_dl_dtype / sizeof k_dl_dtype[0]))

static gpux_status dtype_of(gpux_dtype *out, DLDataType t) {
  for (int d = 0; d < N_DL_DTYPES; d++)
    if (t.lanes == 1 && t.code == k_dl_dtype[d].code && t.bits == k_dl_dtype[d].bits) {
      *out = (gpux_dtype)d;
      return GPUX_SUCCESS;
    }
  return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE,
                         "DLPack dtype (code %u, %u bits, %u lanes) has no gpux dtype",
                         (unsigned)t.code, (unsigned)t.bits, (unsigned)t.lanes);
}

/* ---- export ------------------------------------------------------------------------------ */
typedef struct export_state {
  struct gpux_array *view;
  int64_t shape[GPUX_MAX_DIMS], strides[GPUX_MAX_DIMS];
} export_state;
typedef struct export_v {
  DLManagedTensorVersioned t; /* first: the deleter's pointer is the allocation's */
  export_state st;
} export_v;
typedef struct export_l {
  DLManagedTensor t;
  export_state st;
} export_l;

static void export_v_delete(DLManagedTensorVersioned *self) {
  export_v *e = (export_v *)self;
  gpux_array_release(e->st.view);
  free(e);
}
static void export_l_delete(DLManagedTensor *self) {
  export_l *e = (export_l *)self;
  gpux_array_release(e->st.view);
  free(e);
}

/* Fills t and st for a (st->view: a new view of a, released here on failure) */
static gpux_status export_fill(DLTensor *t, export_state *st, struct gpux_array *a) {
  GPUX__CHECK(gpux__check_array(a, "array"));
  GPUX__NEED(a->ctx, GPUX__Q_INTEROP, 0, -1, -1);
  GPUX__CHECK(gpux__array_view(&st->view, a));
  const struct gpux_array *v = st->view;
  memcpy(st->shape, v->shape, sizeof st->shape);
  memcpy(st->strides, v->strides, sizeof st->strides);
  t->ndim = v->ndim;
  t->shape = st->shape;
  t->strides = st->strides;
  t->dtype.code = k_dl_dtype[v->dtype].code;
  t->dtype.bits = k_dl_dtype[v->dtype].bits;
  t->dtype.lanes = 1;
  if (v->ctx->kind == GPUX_BACKEND_CUDA) {
    t->device.device_type = kDLCUDA;
    gpux__native n = {0};
    gpux_status s = v->ctx->be->native_get(v->ctx->b, &n);
    if (s != GPUX_SUCCESS) {
      gpux_array_release(st->view);
      st->view = NULL;
      return s;
    }
    t->device.device_id = n.ordinal;
  } else {
    t->device.device_type = kDLOpenCL;
    t->device.device_id = v->ctx->device;
  }
  t->data = v->st && v->size > 0 ? v->st->blk.buf : NULL;
  t->byte_offset = t->data ? (uint64_t)v->offset * gpux_dtype_size(v->dtype) : 0;
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_array_to_dlpack(DLManagedTensorVersioned **out, gpux_array_t a) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  export_v *e = calloc(1, sizeof *e);
  if (!e) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  gpux_status s = export_fill(&e->t.dl_tensor, &e->st, a);
  if (s != GPUX_SUCCESS) {
    free(e);
    return s;
  }
  e->t.version.major = DLPACK_MAJOR_VERSION;
  e->t.version.minor = DLPACK_MINOR_VERSION;
  e->t.manager_ctx = NULL;
  e->t.deleter = export_v_delete;
  e->t.flags = 0;
  *out = &e->t;
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_array_to_dlpack_legacy(DLManagedTensor **out, gpux_array_t a) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  export_l *e = calloc(1, sizeof *e);
  if (!e) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  gpux_status s = export_fill(&e->t.dl_tensor, &e->st, a);
  if (s != GPUX_SUCCESS) {
    free(e);
    return s;
  }
  e->t.manager_ctx = NULL;
  e->t.deleter = export_l_delete;
  *out = &e->t;
  return GPUX_SUCCESS;
}

/* ---- import ------------------------------------------------------------------------------ */
/* The tensor to give back when gpux is done: one of the two kinds */
typedef struct import_owner {
  DLManagedTensorVersioned *v;
  DLManagedTensor *l;
} import_owner;

static void give_back(import_owner *o) {
  if (o->v && o->v->deleter) o->v->deleter(o->v);
  if (o->l && o->l->deleter) o->l->deleter(o->l);
}
static void import_deleter(void *user) {
  import_owner *o = user;
  give_back(o);
  free(o);
}

/* Host memory (or a read-only tensor on the device): the elements, gathered in row-major
 * order, into a new array of ctx */
static gpux_status import_copy(struct gpux_array **out, struct gpux_context *ctx,
                               const DLTensor *t, gpux_dtype dt, const int64_t *strides,
                               int on_host) {
  struct gpux_array *a = NULL;
  GPUX__CHECK(gpux__array_new(&a, ctx, dt, t->ndim, t->shape));
  if (a->size == 0) {
    *out = a;
    return GPUX_SUCCESS;
  }
  if (!on_host) {
    /* the device tensor, wrapped for the copy only (no deleter: the caller gives it back) */
    struct gpux_array *w = NULL;
    /* a broadcast axis (stride 0) is wrapped as length 1, and the copy broadcasts it */
    int64_t shape1[GPUX_MAX_DIMS];
    for (int d = 0; d < t->ndim; d++) shape1[d] = strides[d] == 0 ? 1 : t->shape[d];
    gpux_status s = gpux__array_wrap_native(&w, ctx, t->data, t->byte_offset, dt, t->ndim,
                                            shape1, strides, NULL, NULL);
    if (s == GPUX_SUCCESS) s = gpux__copy_strided(a, w);
    gpux_array_release(w);
    if (s != GPUX_SUCCESS) {
      gpux_array_release(a);
      return s;
    }
    /* the tensor goes back when this returns: gpux's reads of it first */
    s = ctx->be->synchronize(gpux__q(ctx));
    if (s == GPUX_SUCCESS) s = gpux__deferred_check(gpux__stream_cur(ctx));
    if (s != GPUX_SUCCESS) {
      gpux_array_release(a);
      return s;
    }
    *out = a;
    return GPUX_SUCCESS;
  }
  const size_t es = gpux_dtype_size(dt);
  unsigned char *buf = malloc((size_t)a->size * es);
  if (!buf) {
    gpux_array_release(a);
    return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  }
  const unsigned char *src = (const unsigned char *)t->data + t->byte_offset;
  int64_t idx[GPUX_MAX_DIMS] = {0};
  for (int64_t i = 0; i < a->size; i++) {
    int64_t off = 0;
    for (int d = 0; d < t->ndim; d++) off += idx[d] * strides[d];
    memcpy(buf + (size_t)i * es, src + off * (int64_t)es, es);
    for (int d = t->ndim - 1; d >= 0; d--) {
      if (++idx[d] < t->shape[d]) break;
      idx[d] = 0;
    }
  }
  gpux_status s = ctx->be->mem_upload(gpux__q(ctx), a->st->blk.buf, 0, buf, (size_t)a->size * es);
  free(buf);
  if (s != GPUX_SUCCESS) {
    gpux_array_release(a);
    return s;
  }
  *out = a;
  return GPUX_SUCCESS;
}

static gpux_status import(struct gpux_array **out, struct gpux_context *ctx, const DLTensor *t,
                          int read_only, import_owner *owner) {
  if (!ctx) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "context is NULL");
  GPUX__NEED(ctx, GPUX__Q_INTEROP, 0, -1, -1);
  gpux_dtype dt = GPUX_FLOAT32;
  GPUX__CHECK(dtype_of(&dt, t->dtype));
  if (t->ndim < 0 || t->ndim > GPUX_MAX_DIMS)
    return gpux__set_error(GPUX_ERROR_INVALID_SHAPE, "DLPack tensor of %d dimensions (at most %d)",
                           (int)t->ndim, GPUX_MAX_DIMS);
  if (t->ndim > 0 && !t->shape)
    return gpux__set_error(GPUX_ERROR_NULL_POINTER, "the DLPack tensor's shape is NULL");
  int64_t size = 0;
  GPUX__CHECK(gpux__check_shape(t->ndim, t->shape, &size, dt));
  /* NULL strides: row-major contiguous (DLPack before 1.2) */
  int64_t strides[GPUX_MAX_DIMS], c = 1;
  for (int d = t->ndim - 1; d >= 0; d--) {
    strides[d] = t->strides ? t->strides[d] : c;
    c *= t->shape[d] ? t->shape[d] : 1;
  }
  if (size > 0 && !t->data)
    return gpux__set_error(GPUX_ERROR_NULL_POINTER, "the DLPack tensor's data is NULL");
  const int dev = t->device.device_type;
  const int on_host = dev == kDLCPU || dev == kDLCUDAHost;
  /* a broadcast view (a stride of 0 on an axis longer than 1, as PyTorch's expand makes):
   * gpux arrays never alias elements, so it is copied like a read-only tensor */
  for (int d = 0; d < t->ndim; d++)
    if (t->shape[d] > 1 && strides[d] == 0) read_only = 1;
  if (on_host || read_only) {
    if (!on_host) {
      const int mine = ctx->kind == GPUX_BACKEND_CUDA
                           ? (dev == kDLCUDA || dev == kDLCUDAManaged)
                           : dev == kDLOpenCL;
      if (!mine)
        return gpux__set_error(GPUX_ERROR_UNSUPPORTED,
                               "a DLPack tensor of device type %d on a %s context", dev,
                               gpux_backend_name(ctx->kind));
    }
    GPUX__CHECK(import_copy(out, ctx, t, dt, strides, on_host));
    give_back(owner);
    free(owner);
    return GPUX_SUCCESS;
  }
  if (ctx->kind == GPUX_BACKEND_CUDA) {
    if (dev != kDLCUDA && dev != kDLCUDAManaged)
      return gpux__set_error(GPUX_ERROR_UNSUPPORTED,
                             "a DLPack tensor of device type %d on a CUDA context (it takes "
                             "kDLCUDA, kDLCUDAManaged, kDLCPU and kDLCUDAHost)",
                             dev);
    gpux__native n = {0};
    GPUX__CHECK(ctx->be->native_get(ctx->b, &n));
    if (dev == kDLCUDA && t->device.device_id != n.ordinal)
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                             "the DLPack tensor is on CUDA device %d, the context on %d",
                             (int)t->device.device_id, n.ordinal);
  } else {
    if (dev != kDLOpenCL)
      return gpux__set_error(GPUX_ERROR_UNSUPPORTED,
                             "a DLPack tensor of device type %d on an OpenCL context (it takes "
                             "kDLOpenCL, kDLCPU and kDLCUDAHost)",
                             dev);
    if (t->device.device_id != ctx->device)
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                             "the DLPack tensor is on OpenCL device %d, the context on %d",
                             (int)t->device.device_id, ctx->device);
  }
  if (size == 0 && !t->data) {
    /* nothing to wrap: an empty array of gpux's own, and the tensor goes back now */
    GPUX__CHECK(gpux__array_new(out, ctx, dt, t->ndim, t->shape));
    give_back(owner);
    free(owner);
    return GPUX_SUCCESS;
  }
  return gpux__array_wrap_native(out, ctx, t->data, t->byte_offset, dt, t->ndim, t->shape,
                                 strides, import_deleter, owner);
}

GPUX_API gpux_status gpux_array_from_dlpack(gpux_array_t *out, gpux_context_t ctx,
                                            DLManagedTensorVersioned *tensor) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  if (!tensor) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "tensor is NULL");
  if (tensor->version.major != DLPACK_MAJOR_VERSION) {
    /* DLPack: a consumer that cannot read the tensor's major version gives it back */
    const unsigned major = tensor->version.major, minor = tensor->version.minor;
    if (tensor->deleter) tensor->deleter(tensor);
    return gpux__set_error(GPUX_ERROR_UNSUPPORTED,
                           "DLPack %u.%u tensor; gpux reads major version %u (the tensor's "
                           "deleter was called)",
                           major, minor, (unsigned)DLPACK_MAJOR_VERSION);
  }
  import_owner *o = calloc(1, sizeof *o);
  if (!o) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  o->v = tensor;
  gpux_status s = import(out, ctx, &tensor->dl_tensor,
                         (tensor->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0, o);
  if (s != GPUX_SUCCESS) free(o);
  return s;
}

GPUX_API gpux_status gpux_array_from_dlpack_legacy(gpux_array_t *out, gpux_context_t ctx,
                                                   DLManagedTensor *tensor) {
  GPUX__API_FN();
  if (!out) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out is NULL");
  *out = NULL;
  if (!tensor) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "tensor is NULL");
  import_owner *o = calloc(1, sizeof *o);
  if (!o) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  o->l = tensor;
  gpux_status s = import(out, ctx, &tensor->dl_tensor, 0, o);
  if (s != GPUX_SUCCESS) free(o);
  return s;
}

#else /* built without a DLPack 1.x header: the same ABI, answering that */
struct DLManagedTensorVersioned;
struct DLManagedTensor;
static gpux_status no_dlpack(void) {
  return gpux__set_error(GPUX_ERROR_UNSUPPORTED,
                         "gpux was built without a DLPack 1.x header (GPUX_WITH_DLPACK)");
}
GPUX_API gpux_status gpux_array_to_dlpack(struct DLManagedTensorVersioned **out, gpux_array_t a);
GPUX_API gpux_status gpux_array_to_dlpack(struct DLManagedTensorVersioned **out, gpux_array_t a) {
  GPUX__API_FN();
  if (out) *out = NULL;
  (void)a;
  return no_dlpack();
}
GPUX_API gpux_status gpux_array_to_dlpack_legacy(struct DLManagedTensor **out, gpux_array_t a);
GPUX_API gpux_status gpux_array_to_dlpack_legacy(struct DLManagedTensor **out, gpux_array_t a) {
  GPUX__API_FN();
  if (out) *out = NULL;
  (void)a;
  return no_dlpack();
}
GPUX_API gpux_status gpux_array_from_dlpack(gpux_array_t *out, gpux_context_t ctx,
                                            struct DLManagedTensorVersioned *tensor);
GPUX_API gpux_status gpux_array_from_dlpack(gpux_array_t *out, gpux_context_t ctx,
                                            struct DLManagedTensorVersioned *tensor) {
  GPUX__API_FN();
  if (out) *out = NULL;
  (void)ctx;
  (void)tensor;
  return no_dlpack();
}
GPUX_API gpux_status gpux_array_from_dlpack_legacy(gpux_array_t *out, gpux_context_t ctx,
                                                   struct DLManagedTensor *tensor);
GPUX_API gpux_status gpux_array_from_dlpack_legacy(gpux_array_t *out, gpux_context_t ctx,
                                                   struct DLManagedTensor *tensor) {
  GPUX__API_FN();
  if (out) *out = NULL;
  (void)ctx;
  (void)tensor;
  return no_dlpack();
}
#endif
