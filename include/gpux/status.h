/* gpux: status codes. Every gpux call returns one; the numbers are stable ABI.
 * Groups: 0 success, 1xx caller errors, 2xx resources, 3xx backends and drivers,
 * 4xx unsupported, 9xx internal. */
#ifndef GPUX_STATUS_H
#define GPUX_STATUS_H
#include "version.h"

/* X(NAME, value, "description") -- the one list both the enum and the strings come from. */
#define GPUX_STATUS_MAP(X)                                                              \
  X(SUCCESS, 0, "success")                                                              \
  X(ERROR_INVALID_ARGUMENT, 100, "invalid argument")                                    \
  X(ERROR_NULL_POINTER, 101, "NULL handle or pointer")                                  \
  X(ERROR_INVALID_SHAPE, 102, "invalid shape")                                          \
  X(ERROR_SHAPE_MISMATCH, 103, "shapes do not match or do not broadcast")               \
  X(ERROR_DTYPE_MISMATCH, 104, "dtypes do not match")                                   \
  X(ERROR_INVALID_DTYPE, 105, "unknown dtype")                                          \
  X(ERROR_SIZE_OVERFLOW, 106, "size or byte count overflows")                           \
  X(ERROR_CONTEXT_MISMATCH, 107, "arrays belong to different contexts")                 \
  X(ERROR_INVALID_AXIS, 108, "invalid axis or permutation")                             \
  X(ERROR_OVERLAP, 109, "output partially overlaps an input")                           \
  X(ERROR_INVALID_OP, 110, "unknown operation")                                         \
  X(ERROR_INDEX_OUT_OF_RANGE, 111, "index out of range")                                \
  X(ERROR_OUT_OF_MEMORY, 200, "out of device memory")                                   \
  X(ERROR_OUT_OF_HOST_MEMORY, 201, "out of host memory")                                \
  X(ERROR_BACKEND_UNKNOWN, 300, "unknown backend name")                                 \
  X(ERROR_BACKEND_UNAVAILABLE, 301, "backend module or driver unavailable")             \
  X(ERROR_NO_DEVICE, 302, "no device")                                                  \
  X(ERROR_INVALID_DEVICE, 303, "device index out of range")                             \
  X(ERROR_DRIVER, 304, "driver call failed")                                            \
  X(ERROR_KERNEL_BUILD, 305, "kernel build failed")                                     \
  X(ERROR_KERNEL_NOT_FOUND, 306, "kernel not found")                                    \
  X(ERROR_LAUNCH, 307, "kernel launch failed")                                          \
  X(ERROR_ASYNC, 308, "queued device work failed")                                      \
  X(ERROR_WRONG_BACKEND, 309, "native handle of another backend")                      \
  X(ERROR_UNSUPPORTED, 400, "operation not supported by this backend or device")        \
  X(ERROR_UNSUPPORTED_DTYPE, 401, "dtype not supported by this operation")              \
  X(ERROR_INTERNAL, 900, "internal error")

typedef enum gpux_status {
#define GPUX__STATUS_ENUM(name, value, text) GPUX_##name = value,
  GPUX_STATUS_MAP(GPUX__STATUS_ENUM)
#undef GPUX__STATUS_ENUM
} gpux_status;

#ifdef __cplusplus
extern "C" {
#endif
/* Static text for a status ("unknown status" for a value not in the list). */
GPUX_API const char *gpux_status_string(gpux_status s);
/* Short identifier, e.g. "GPUX_ERROR_SHAPE_MISMATCH". */
GPUX_API const char *gpux_status_name(gpux_status s);
/* Detail of the last error raised on this thread: names the argument, the shapes or the
 * native error code. Successful calls leave it alone; gpux_clear_error() empties it.
 * The text stays valid until the next failing gpux call on this thread. */
GPUX_API const char *gpux_last_error_message(void);
GPUX_API void gpux_clear_error(void);
#ifdef __cplusplus
}
#endif
#endif
