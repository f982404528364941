/* gpux inside an OpenCL program: the native handles of a gpux context and its arrays, and
 * gpux contexts and arrays on the application's own OpenCL context, queue and buffers.
 * Includes CL/cl.h (OpenCL 1.2 API unless CL_TARGET_OPENCL_VERSION says otherwise);
 * include/gpux.h does not need it. docs/interop.md has a worked example. */
#ifndef GPUX_OPENCL_H
#define GPUX_OPENCL_H
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include "../gpux.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A context on the application's OpenCL context, device and command queue (in order; made
 * on that context and device). gpux queues all its work on that queue and never releases
 * the application's references (it holds its own, released with the gpux context). Device
 * events time with the queue's profiling: a queue made without CL_QUEUE_PROFILING_ENABLE
 * gives GPUX_ERROR_UNSUPPORTED from gpux_event_create. */
GPUX_API gpux_status gpux_opencl_context_create(gpux_context_t *out, cl_context context,
                                                cl_device_id device, cl_command_queue queue);
/* The OpenCL context, device and queue a gpux context runs on (each output may be NULL),
 * without a new reference: they stay valid while the gpux context is. GPUX_ERROR_WRONG_BACKEND
 * for a context of another backend. */
GPUX_API gpux_status gpux_opencl_context_get(cl_context *context, cl_device_id *device,
                                             cl_command_queue *queue, gpux_context_t ctx);
/* The command queue of a gpux stream (gpux_stream_create, or the default stream); gpux owns
 * it (no reference is added). Work the application queues there is ordered with gpux's
 * work on that stream. */
GPUX_API gpux_status gpux_opencl_stream_get(cl_command_queue *queue, gpux_stream_t s);

/* An array on the application's buffer, without a copy: element [0, ..., 0] at byte
 * offset_bytes of mem (a multiple of the dtype's size), the given shape and strides (in
 * elements, negative allowed; NULL: row-major contiguous), dtype dt. The buffer must belong
 * to the gpux context's OpenCL context and hold every element (checked:
 * GPUX_ERROR_INVALID_ARGUMENT otherwise). gpux holds a reference to mem (clRetainMemObject)
 * and never puts it in its pool; when the last gpux reference goes (the array and every view
 * of it), gpux waits for the work it queued, releases its reference and calls
 * deleter(user_data) if deleter is not NULL. Every op takes such arrays and their views. Two
 * wraps of overlapping memory are unrelated arrays to gpux (an op whose output overlaps its
 * input through them is not detected): take views of one wrapped array instead. */
GPUX_API gpux_status gpux_opencl_array_wrap(gpux_array_t *out, gpux_context_t ctx, cl_mem mem,
                                            size_t offset_bytes, gpux_dtype dt, int ndim,
                                            const int64_t *shape, const int64_t *strides,
                                            gpux_deleter deleter, void *user_data);
/* The buffer and the byte offset of element [0, ..., 0] (NULL and 0 for an empty array that
 * gpux made), without a new reference: valid while the array is. */
GPUX_API gpux_status gpux_opencl_array_get(cl_mem *mem, size_t *offset_bytes, gpux_array_t a);

#ifdef __cplusplus
}
#endif
#endif
