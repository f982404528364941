/* gpux: n-d arrays on the device (row-major, 0 to GPUX_MAX_DIMS dimensions). */
#ifndef GPUX_ARRAY_H
#define GPUX_ARRAY_H
#include <stddef.h>
#include <stdint.h>
#include "context.h"

#define GPUX_MAX_DIMS 8
/* "every axis": for naxes (reductions, squeeze), and for the axis of argmin/argmax (never a
 * valid axis) */
#define GPUX_ALL_AXES (-0x7fffffff - 1)

typedef struct gpux_array *gpux_array_t;
/* Called once with user_data when gpux no longer needs memory the application lent it
 * (an array wrapped around the application's allocation: include/gpux/cuda.h, opencl.h),
 * after the work gpux queued on it is done. */
typedef void (*gpux_deleter)(void *user_data);

/* Values are stable ABI and match kernels/common/gpux_kernels.h. bool is stored as one
 * byte holding 0 or 1. FLOAT16 (IEEE binary16) and BFLOAT16 (the upper half of a float32)
 * take 2 bytes each (host data: uint16_t bit patterns): arrays of them can be created,
 * filled, copied, viewed, cast to and from every dtype, used as GEMM inputs and in the
 * elementwise ops float32 takes, reductions, scans and where (computed in float32, rounded
 * once to the dtype). Conversions to them round to nearest even (docs/semantics.md).
 * The integers INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64 take every op of
 * int32, with the same rules (wrapping arithmetic, floor division, x / 0 == 0).
 * COMPLEX64 and COMPLEX128 (8 and 16 bytes: re, im interleaved, float32 / float64 each, as
 * C99 complex, cuComplex and NumPy; host data: gpux_complex64 / gpux_complex128) can for now
 * be created (empty, zeros, ones, gpux_array_full_complex), uploaded, downloaded, viewed,
 * copied, cast to and from every dtype (complex -> real takes the real part; -> bool is
 * re != 0 || im != 0: docs/semantics.md), exchanged through DLPack and multiplied
 * (gemm, matmul, gemv, dot, vdot: include/gpux/linalg.h); every other op returns
 * GPUX_ERROR_UNSUPPORTED_DTYPE for them. */
typedef enum gpux_dtype {
  GPUX_FLOAT32 = 0,
  GPUX_FLOAT64 = 1,
  GPUX_INT32 = 2,
  GPUX_INT64 = 3,
  GPUX_UINT8 = 4,
  GPUX_BOOL = 5,
  GPUX_FLOAT16 = 6,
  GPUX_BFLOAT16 = 7,
  GPUX_INT8 = 8,
  GPUX_INT16 = 9,
  GPUX_UINT16 = 10,
  GPUX_UINT32 = 11,
  GPUX_UINT64 = 12,
  GPUX_COMPLEX64 = 13,
  GPUX_COMPLEX128 = 14
} gpux_dtype;
#define GPUX_DTYPE_COUNT 15

/* Host elements of the complex dtypes: the layout of C99's float _Complex / double _Complex
 * and of cuFloatComplex / cuDoubleComplex. */
typedef struct gpux_complex64 {
  float re, im;
} gpux_complex64;
typedef struct gpux_complex128 {
  double re, im;
} gpux_complex128;
static inline gpux_complex64 gpux_complex64_make(float re, float im) {
  gpux_complex64 c;
  c.re = re;
  c.im = im;
  return c;
}
static inline gpux_complex128 gpux_complex128_make(double re, double im) {
  gpux_complex128 c;
  c.re = re;
  c.im = im;
  return c;
}

#ifdef __cplusplus
extern "C" {
#endif

GPUX_API const char *gpux_dtype_name(gpux_dtype dt); /* "float32", ...; NULL if unknown */
GPUX_API size_t gpux_dtype_size(gpux_dtype dt);       /* 0 if unknown */

/* Type promotion on request (docs/semantics.md, "Type promotion"). gpux's ops are strict:
 * operands of different dtypes are an error, and a scalar never changes an array's dtype.
 * These give NumPy 2's rules for those who want them: the dtype a binary op on a and b
 * promotes to (gpux_binary_promote runs it), e.g. uint8 and int32 -> int32, int32 and
 * float32 -> float64, float16 and bfloat16 -> float32; complex above float: complex64 and
 * float64 (or int32, int64) -> complex128, int16 or float16 and complex64 -> complex64. */
GPUX_API gpux_status gpux_result_type(gpux_dtype *out, gpux_dtype a, gpux_dtype b);
/* The kind of a scalar written in the program (NEP 50's "Python scalars", which are weak). */
typedef enum gpux_scalar_kind {
  GPUX_SCALAR_BOOL = 0,  /* value 0 or 1 */
  GPUX_SCALAR_INT = 1,   /* an integral value */
  GPUX_SCALAR_FLOAT = 2,
  GPUX_SCALAR_COMPLEX = 3 /* a complex value; value is not examined */
} gpux_scalar_kind;
/* The dtype of an op on an array of dtype a and a scalar (NEP 50): a bool scalar keeps a;
 * an integer scalar keeps a (GPUX_ERROR_INVALID_ARGUMENT when a cannot hold the value, e.g.
 * 300 with uint8), except bool, which gives int64; a float scalar keeps a float dtype and
 * gives float64 with bool and integer dtypes (an int32 array times 1.5 is float64); a
 * complex scalar keeps a complex dtype, gives the complex dtype of a float dtype's precision
 * (float16, bfloat16, float32 -> complex64; float64 -> complex128) and complex128 with bool
 * and integer dtypes. */
GPUX_API gpux_status gpux_result_type_scalar(gpux_dtype *out, gpux_dtype a,
                                             gpux_scalar_kind kind, double value);

/* Creation. shape may be NULL when ndim is 0 (a scalar array of one element).
 * Contents of gpux_array_empty are undefined. Sizes whose byte count overflows fail with
 * GPUX_ERROR_SIZE_OVERFLOW; more than the device holds, GPUX_ERROR_OUT_OF_MEMORY. */
GPUX_API gpux_status gpux_array_empty(gpux_array_t *out, gpux_context_t ctx, gpux_dtype dt,
                                      int ndim, const int64_t *shape);
GPUX_API gpux_status gpux_array_zeros(gpux_array_t *out, gpux_context_t ctx, gpux_dtype dt,
                                      int ndim, const int64_t *shape);
GPUX_API gpux_status gpux_array_ones(gpux_array_t *out, gpux_context_t ctx, gpux_dtype dt,
                                     int ndim, const int64_t *shape);
/* value is converted to dt as gpux_array_cast converts float64 values (complex dtypes:
 * (value, 0)). ones of a complex dtype is 1 + 0i. */
GPUX_API gpux_status gpux_array_full(gpux_array_t *out, gpux_context_t ctx, gpux_dtype dt,
                                     int ndim, const int64_t *shape, double value);
/* full with the complex value re + im i: each part converted to the component dtype as
 * gpux_array_cast converts float64 to float32 / float64. For a real dtype im must be 0
 * (GPUX_ERROR_INVALID_ARGUMENT otherwise: NumPy would drop it with a ComplexWarning) and
 * re is converted as gpux_array_full converts value. */
GPUX_API gpux_status gpux_array_full_complex(gpux_array_t *out, gpux_context_t ctx,
                                             gpux_dtype dt, int ndim, const int64_t *shape,
                                             double re, double im);
/* 1-d [start, stop) by step, NumPy's length ceil((stop - start) / step); element i is
 * start + i * step computed in float64, then converted to dt. Complex dtypes:
 * GPUX_ERROR_UNSUPPORTED_DTYPE (arange, linspace: cast a real ramp instead). */
GPUX_API gpux_status gpux_array_arange(gpux_array_t *out, gpux_context_t ctx, gpux_dtype dt,
                                       double start, double stop, double step);
/* 1-d, n values from start to stop inclusive (n == 1 gives start); computed in float64. */
GPUX_API gpux_status gpux_array_linspace(gpux_array_t *out, gpux_context_t ctx, gpux_dtype dt,
                                         double start, double stop, int64_t n);
/* Creates an array and uploads size * dtype_size bytes from host memory (row-major). */
GPUX_API gpux_status gpux_array_from_host(gpux_array_t *out, gpux_context_t ctx, gpux_dtype dt,
                                          int ndim, const int64_t *shape, const void *data);

/* Upload into an existing array (which may be a strided view): bytes must equal
 * size * dtype_size; data is row-major. The host buffer may be reused when this returns. */
GPUX_API gpux_status gpux_array_write(gpux_array_t dst, const void *data, size_t bytes);
/* Download into a caller's buffer (row-major, bytes == size * dtype_size); waits for the
 * queued work that produces the array and reports errors raised by it. */
GPUX_API gpux_status gpux_array_read(gpux_array_t src, void *data, size_t bytes);
/* Page-locked ("pinned") host memory of ctx's backend (CUDA: cuMemHostAlloc, portable to
 * every context; OpenCL: a CL_MEM_ALLOC_HOST_PTR buffer, mapped): transfers from and to it
 * run at the bus's full speed and overlap with the host. bytes > 0. gpux_pinned_free frees
 * it (NULL is ignored; the context may be released before or after: the memory keeps it). */
GPUX_API gpux_status gpux_pinned_alloc(void **out, gpux_context_t ctx, size_t bytes);
GPUX_API void gpux_pinned_free(void *p);
/* Asynchronous transfers, as gpux_array_write / gpux_array_read otherwise: each queues the
 * copy and returns. The host buffer stays in use until the copy is complete: do not modify
 * data after a write, nor read it after a read, until then. It is complete after
 * gpux_context_synchronize, gpux_array_read (or anything else that waits for the queue), or
 * the synchronization of an event recorded after the call. From pinned memory
 * (gpux_pinned_alloc, or memory the driver knows as page-locked) the copy overlaps with the
 * host's work. From other memory a transfer of 4 MiB or more goes through page-locked bounce
 * buffers of the stream's (4 x 16 MiB; chunks of 2 to 16 MiB, the host's copies on
 * GPUX_COPY_THREADS threads, default half the cores up to 8, overlapping the bus), in this
 * form and the blocking one alike: a write
 * returns when the host's data is in the bounce buffers, a read when it is in data; smaller
 * ones are the driver's (which may copy before returning). Errors of the copy itself show at
 * that synchronization. */
GPUX_API gpux_status gpux_array_write_async(gpux_array_t dst, const void *data, size_t bytes);
GPUX_API gpux_status gpux_array_read_async(gpux_array_t src, void *data, size_t bytes);
/* Download into a new malloc'd buffer; free it with gpux_host_free. */
GPUX_API gpux_status gpux_array_download(void **data, size_t *bytes, gpux_array_t src);
GPUX_API void gpux_host_free(void *p);

/* Device-to-device copies. copy makes a new contiguous array; copy_into writes src into dst
 * (same dtype; src broadcasts to dst's shape; dst may be a strided view). */
GPUX_API gpux_status gpux_array_copy(gpux_array_t *out, gpux_array_t src);
GPUX_API gpux_status gpux_array_copy_into(gpux_array_t dst, gpux_array_t src);
/* Contiguous copy of a (possibly strided) view; a contiguous input still gets a new array. */
GPUX_API gpux_status gpux_array_contiguous(gpux_array_t *out, gpux_array_t src);

/* Views share the device memory of their base array; the memory lives until every array
 * and view on it is released. */
/* reshape: one entry may be -1 (inferred). A view when src is contiguous, else a copy. */
GPUX_API gpux_status gpux_array_reshape(gpux_array_t *out, gpux_array_t src, int ndim,
                                        const int64_t *shape);
/* Strided view, as Python's a[start0:stop0:step0, start1:stop1:step1, ...]: for each
 * dimension [start, stop) by step (step != 0, negative allowed; any int64 value otherwise);
 * negative start/stop count from the end, and both are clipped as in Python slicing.
 * start, stop and step are each NULL or an array of exactly ndim(src) entries: there is no
 * way to pass fewer (use gpux_array_slice_axis for one axis). NULL start/stop/step mean,
 * for every dimension, Python's defaults: 1 for step; 0 and the length for a positive
 * step, the last element and "before the first" for a negative one. */
GPUX_API gpux_status gpux_array_slice(gpux_array_t *out, gpux_array_t src, const int64_t *start,
                                      const int64_t *stop, const int64_t *step);
/* Strided view of one axis (negative counts from the end), the others whole: a[..., start:
 * stop:step, ...]. Pass INT64_MAX as stop for "to the end" (INT64_MIN with a negative step:
 * "to the first element, inclusive"). */
GPUX_API gpux_status gpux_array_slice_axis(gpux_array_t *out, gpux_array_t src, int axis,
                                           int64_t start, int64_t stop, int64_t step);
/* View of a[..., index, ...] with that axis dropped (NumPy's integer indexing, PyTorch's
 * select): index may be negative; outside -len..len-1 is GPUX_ERROR_INDEX_OUT_OF_RANGE. */
GPUX_API gpux_status gpux_array_select(gpux_array_t *out, gpux_array_t src, int axis,
                                       int64_t index);
/* View without the listed axes, each of length 1 (naxes == GPUX_ALL_AXES: every axis of
 * length 1; axes may then be NULL). An axis of another length is GPUX_ERROR_INVALID_AXIS. */
GPUX_API gpux_status gpux_array_squeeze(gpux_array_t *out, gpux_array_t src, int naxes,
                                        const int *axes);
/* View with naxes new axes of length 1, at the positions `axes` of the result (negative
 * counts from the result's end), as numpy.expand_dims. */
GPUX_API gpux_status gpux_array_expand_dims(gpux_array_t *out, gpux_array_t src, int naxes,
                                            const int *axes);
/* New contiguous array with axes permuted: out.shape[i] = src.shape[axes[i]] (copy kernel). */
GPUX_API gpux_status gpux_array_permute(gpux_array_t *out, gpux_array_t src, const int *axes);
/* Reverses the axes (the matrix transpose for 2-d), as a contiguous copy. */
GPUX_API gpux_status gpux_array_transpose(gpux_array_t *out, gpux_array_t src);
/* New contiguous array converted to dt. Documented conversions: float -> int truncates toward
 * zero and saturates at the target's range, NaN -> 0; int -> int wraps (two's complement);
 * anything -> bool is (x != 0) (NaN -> true); bool -> anything is 0 or 1; anything ->
 * float16/bfloat16 rounds the exact value once to nearest even (overflow -> inf, NaN stays
 * a quiet NaN); float16/bfloat16 -> integers go through float32 (exact). Complex: a real
 * value x becomes (x cast to the component dtype, +0.0); complex -> bool is re != 0 ||
 * im != 0; complex -> another real dtype casts the real part (the imaginary part is dropped,
 * as NumPy does with a ComplexWarning); complex64 <-> complex128 casts each part. */
GPUX_API gpux_status gpux_array_cast(gpux_array_t *out, gpux_array_t src, gpux_dtype dt);
GPUX_API gpux_status gpux_array_cast_into(gpux_array_t dst, gpux_array_t src);

/* Queries. */
GPUX_API gpux_status gpux_array_dtype(gpux_dtype *out, gpux_array_t a);
GPUX_API gpux_status gpux_array_ndim(int *out, gpux_array_t a);
/* Copies ndim entries into shape (GPUX_MAX_DIMS entries always suffice). */
GPUX_API gpux_status gpux_array_shape(int64_t *shape, gpux_array_t a);
/* Strides in elements (not bytes). */
GPUX_API gpux_status gpux_array_strides(int64_t *strides, gpux_array_t a);
GPUX_API gpux_status gpux_array_size(int64_t *out, gpux_array_t a);
GPUX_API gpux_status gpux_array_nbytes(size_t *out, gpux_array_t a);
GPUX_API gpux_status gpux_array_is_contiguous(int *out, gpux_array_t a);
GPUX_API gpux_status gpux_array_context(gpux_context_t *out, gpux_array_t a);

/* NULL is accepted. */
GPUX_API void gpux_array_release(gpux_array_t a);

#ifdef __cplusplus
}
#endif
#endif
