/* gpux inside a CUDA program: the native handles of a gpux context and its arrays, and
 * gpux contexts and arrays on the application's own CUDA context, stream and memory.
 * Includes the CUDA driver API's header (cuda.h); include/gpux.h does not need it.
 * libgpux itself does not link the driver: these calls go through the CUDA backend that a
 * context runs on. docs/interop.md has a worked example. */
#ifndef GPUX_CUDA_H
#define GPUX_CUDA_H
#include <cuda.h>
#include "../gpux.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A context on the application's CUDA context and stream (stream may be NULL, the NULL
 * stream). gpux queues all its work on that stream, with that context current, and never
 * destroys either: they must outlive the gpux context and every object made from it. The
 * device is the context's. Any CUDA context works (the device's primary context, which the
 * runtime API and cuBLAS use, or one of cuCtxCreate). GPUX_ERROR_WRONG_BACKEND never; a
 * build without the CUDA backend answers GPUX_ERROR_BACKEND_UNAVAILABLE. */
GPUX_API gpux_status gpux_cuda_context_create(gpux_context_t *out, CUcontext context,
                                              CUstream stream);
/* The CUDA context, device and stream a gpux context runs on (each output may be NULL).
 * They stay gpux's unless the context was made by gpux_cuda_context_create: do not destroy
 * them. GPUX_ERROR_WRONG_BACKEND for a context of another backend. */
GPUX_API gpux_status gpux_cuda_context_get(CUcontext *context, CUdevice *device,
                                           CUstream *stream, gpux_context_t ctx);
/* The CUstream of a gpux stream (gpux_stream_create, or the default stream); gpux owns it.
 * Work the application queues there is ordered with gpux's work on that stream. */
GPUX_API gpux_status gpux_cuda_stream_get(CUstream *stream, gpux_stream_t s);

/* An array on the application's device memory, without a copy: element [0, ..., 0] at
 * address ptr, the given shape and strides (in elements, negative allowed; NULL: row-major
 * contiguous), dtype dt. Every element must lie in one allocation of the context's CUDA
 * context (checked: GPUX_ERROR_INVALID_ARGUMENT otherwise), and ptr must be aligned to the
 * dtype's size. The memory never enters gpux's pool; when the last gpux reference to it goes
 * (the array and every view of it), gpux waits for the work it queued and calls
 * deleter(user_data) if deleter is not NULL. Every op takes such arrays and their views. Two
 * wraps of overlapping memory are unrelated arrays to gpux (an op whose output overlaps its
 * input through them is not detected): take views of one wrapped array instead. */
GPUX_API gpux_status gpux_cuda_array_wrap(gpux_array_t *out, gpux_context_t ctx, CUdeviceptr ptr,
                                          gpux_dtype dt, int ndim, const int64_t *shape,
                                          const int64_t *strides, gpux_deleter deleter,
                                          void *user_data);
/* The device address of element [0, ..., 0] (0 for an empty array); shape, strides and dtype
 * come from gpux_array_shape / _strides / _dtype. The memory stays gpux's (or the
 * application's, for a wrapped array): valid while the array is. */
GPUX_API gpux_status gpux_cuda_array_get(CUdeviceptr *ptr, gpux_array_t a);

#ifdef __cplusplus
}
#endif
#endif
