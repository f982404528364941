/* gpux: backends, devices and contexts. */
#ifndef GPUX_CONTEXT_H
#define GPUX_CONTEXT_H
#include <stddef.h>
#include <stdint.h>
#include "status.h"

typedef struct gpux_context *gpux_context_t;

typedef enum gpux_backend_kind {
  GPUX_BACKEND_DEFAULT = 0, /* GPUX_BACKEND from the environment, else auto */
  GPUX_BACKEND_AUTO = 1,    /* CUDA, then an OpenCL GPU, then any OpenCL device */
  GPUX_BACKEND_CUDA = 2,
  GPUX_BACKEND_OPENCL = 3
} gpux_backend_kind;

typedef struct gpux_device_info {
  gpux_backend_kind backend; /* GPUX_BACKEND_CUDA or GPUX_BACKEND_OPENCL */
  int index;                 /* index within the backend, as GPUX_DEVICE takes it */
  char name[256];
  char vendor[128];
  char platform[128];        /* OpenCL platform name; "CUDA" on CUDA */
  char driver_version[64];
  char version[64];          /* "sm_90" on CUDA, the OpenCL C version on OpenCL */
  uint64_t global_mem_bytes;
  uint64_t max_alloc_bytes;
  int compute_units;         /* multiprocessors / compute units */
  int fp64;                  /* 1 when float64 arrays are supported */
  int is_gpu;                /* 0 for CPU devices such as pocl */
} gpux_device_info;

/* Options set on a live context; the list grows without breaking the ABI. */
typedef enum gpux_context_option {
  GPUX_OPTION_POOL_LIMIT_BYTES = 1, /* cached (free) bytes the pool may hold; default unlimited */
  GPUX_OPTION_GEMM_PATH = 2, /* gpux_gemm_path (include/gpux/linalg.h); default GPUX_GEMM env */
  GPUX_OPTION_TF32 = 3       /* 1: float32 products may use TF32 tensor cores; default 0 */
} gpux_context_option;

#ifdef __cplusplus
extern "C" {
#endif

/* "cuda", "opencl", "auto" (and "default"); "unknown" for any other value. */
GPUX_API const char *gpux_backend_name(gpux_backend_kind b);
/* Parses a name as GPUX_BACKEND takes it (case-insensitive); unknown names are an error. */
GPUX_API gpux_status gpux_backend_from_name(gpux_backend_kind *out, const char *name);

/* Loads the backend (module, driver) if needed and counts its devices. A backend that cannot
 * be loaded returns GPUX_ERROR_BACKEND_UNAVAILABLE and the reason in the error message;
 * a backend that loads but has no device sets *count = 0 and returns GPUX_ERROR_NO_DEVICE. */
GPUX_API gpux_status gpux_device_count(int *count, gpux_backend_kind backend);
GPUX_API gpux_status gpux_device_get_info(gpux_device_info *info, gpux_backend_kind backend,
                                          int index);

/* backend: GPUX_BACKEND_DEFAULT reads GPUX_BACKEND (unset = auto).
 * device: -1 reads GPUX_DEVICE (unset = 0). A backend named explicitly that cannot be
 * used is an error naming the cause; there is no silent fallback to another backend. */
GPUX_API gpux_status gpux_context_create(gpux_context_t *out, gpux_backend_kind backend,
                                         int device);
/* Waits for queued work; NULL is accepted. */
GPUX_API void gpux_context_release(gpux_context_t ctx);
/* Waits for all queued work, on every stream of the context; reports an error raised by
 * queued work. */
GPUX_API gpux_status gpux_context_synchronize(gpux_context_t ctx);
GPUX_API gpux_status gpux_context_backend(gpux_backend_kind *out, gpux_context_t ctx);
GPUX_API gpux_status gpux_context_device_info(gpux_device_info *out, gpux_context_t ctx);
GPUX_API gpux_status gpux_context_set_option(gpux_context_t ctx, gpux_context_option opt,
                                             int64_t value);

/* Streams: queues of one context (CUDA streams, OpenCL in-order command queues). Work on
 * one stream runs in the order it was queued; work on two streams may overlap and is
 * ordered only by events (gpux_stream_wait_event). Ops take no stream argument: each
 * runs on the calling thread's current stream of its context, which is the context's
 * default stream (the queue every context has) until the thread sets another. Rules
 * (docs/semantics.md, "Streams and threads"):
 * - several threads may use one context at once, each on its own stream; one stream is
 *   used by one thread at a time;
 * - an array may be used on any stream of its context; the caching allocator never hands
 *   its memory to another stream before every stream that used it has finished that
 *   work (no record_stream call is needed);
 * - the application orders work that crosses streams: a stream that reads what another
 *   wrote waits for an event recorded after the write;
 * - blocking calls (gpux_array_read, gpux_reduce_scalar, ...) wait for the calling
 *   thread's current stream; gpux_context_synchronize and the release of wrapped memory
 *   wait for all of them. */
typedef struct gpux_stream *gpux_stream_t;
/* A new stream (GPUX_ERROR_UNSUPPORTED on a backend without streams). */
GPUX_API gpux_status gpux_stream_create(gpux_stream_t *out, gpux_context_t ctx);
/* Drops the caller's reference: the stream goes, after its queued work, when no thread
 * has it current and no array allocated on it is left. The default stream is the
 * context's: releasing it does nothing. NULL is accepted. */
GPUX_API void gpux_stream_release(gpux_stream_t s);
/* The context's default stream (owned by the context: no reference to release). */
GPUX_API gpux_status gpux_context_default_stream(gpux_stream_t *out, gpux_context_t ctx);
/* Makes s the calling thread's current stream of ctx (NULL: the default stream). The
 * thread holds a reference on s until it sets another stream or ends. */
GPUX_API gpux_status gpux_stream_set_current(gpux_context_t ctx, gpux_stream_t s);
/* The calling thread's current stream of ctx (no reference added). */
GPUX_API gpux_status gpux_stream_get_current(gpux_stream_t *out, gpux_context_t ctx);
GPUX_API gpux_status gpux_stream_context(gpux_context_t *out, gpux_stream_t s);
/* Waits for the work queued on s; reports an error raised by it. */
GPUX_API gpux_status gpux_stream_synchronize(gpux_stream_t s);

/* Events: a point in a stream's queue, to wait for and, by default, to time on the
 * device's clock (OpenCL: a default queue with profiling; every context gpux makes has
 * one). GPUX_EVENT_DISABLE_TIMING: ordering only, on every context with streams. */
typedef struct gpux_event *gpux_event_t;
typedef enum gpux_event_flags {
  GPUX_EVENT_DEFAULT = 0,
  GPUX_EVENT_DISABLE_TIMING = 1
} gpux_event_flags;
GPUX_API gpux_status gpux_event_create(gpux_event_t *out, gpux_context_t ctx);
GPUX_API gpux_status gpux_event_create_with_flags(gpux_event_t *out, gpux_context_t ctx,
                                                  unsigned flags);
GPUX_API void gpux_event_release(gpux_event_t ev);
/* Records the event after the work queued so far on the calling thread's current stream
 * (record_on: on stream s); recording again moves it. */
GPUX_API gpux_status gpux_event_record(gpux_event_t ev);
GPUX_API gpux_status gpux_event_record_on(gpux_event_t ev, gpux_stream_t s);
/* Waits on the host until the recorded point is reached (an event never recorded: at
 * once). */
GPUX_API gpux_status gpux_event_synchronize(gpux_event_t ev);
/* *done = 1 when the recorded point is reached (or ev was never recorded), else 0; never
 * waits. */
GPUX_API gpux_status gpux_event_query(int *done, gpux_event_t ev);
/* Work queued on s after this call waits on the device for ev's recorded point (the host
 * does not wait; an event never recorded: no wait). */
GPUX_API gpux_status gpux_stream_wait_event(gpux_stream_t s, gpux_event_t ev);
/* Milliseconds between two recorded timing events (waits for the second). */
GPUX_API gpux_status gpux_event_elapsed_ms(double *ms, gpux_event_t start, gpux_event_t end);

/* Caching allocator: freed device blocks are kept by size and reused. */
typedef struct gpux_pool_stats {
  uint64_t bytes_in_use;     /* held by live arrays (rounded block sizes) */
  uint64_t bytes_cached;     /* free blocks kept for reuse */
  uint64_t peak_bytes_in_use;
  uint64_t device_allocs;    /* calls to the driver's allocator */
  uint64_t device_frees;
  uint64_t pool_hits;        /* requests served from the cache */
  uint64_t pool_misses;
} gpux_pool_stats;
GPUX_API gpux_status gpux_pool_get_stats(gpux_pool_stats *out, gpux_context_t ctx);
/* Waits for queued work on every stream, then returns every cached block to the driver. */
GPUX_API gpux_status gpux_pool_trim(gpux_context_t ctx);

#ifdef __cplusplus
}
#endif
#endif
